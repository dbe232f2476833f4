//! Progress store (placeholder).
