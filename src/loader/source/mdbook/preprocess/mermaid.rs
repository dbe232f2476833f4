//! mdbook-mermaid draws ```` ```mermaid ```` fences as diagrams in the
//! browser. A terminal cannot: the diagram's source is shown, labelled as
//! what it is, so a reader knows a picture stands there.

use crate::model::Block;

pub const LABEL: &str = "mermaid diagram (drawn in the web edition)";

/// Each mermaid fence of `blocks` labelled.
pub fn label(blocks: &mut [Block]) {
    super::code_blocks(blocks, &mut |c| {
        if c.lang.as_deref() == Some("mermaid") {
            c.label = Some(LABEL.to_string());
        }
    });
}
