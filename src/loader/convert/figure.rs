//! Figures: the hero, figure blocks, and compare figures' two columns.
//! Kinds this version cannot draw keep their text.

use super::super::node::{Node, R, strings_in_order};
use super::super::raw::{self, text};
use super::{Cx, typed};
use crate::model::{Column, Figure, FigureBody};

pub(super) fn hero(n: &Node, cx: &mut Cx) -> R<Figure> {
    n.obj()?;
    let kind = n.opt_str("kind")?.unwrap_or_default();
    match (kind.as_str(), n.get("figure")) {
        ("figure" | "", Some(f)) => figure_block(&f, cx),
        _ => {
            cx.warn(
                &n.path(),
                format!("unknown hero kind `{kind}`: shown as text"),
            );
            Ok(Figure {
                label: None,
                title: None,
                caption: None,
                alt: n.opt_str("alt").unwrap_or(None),
                body: FigureBody::Unknown {
                    kind,
                    text: strings_in_order(n.v, &["kind"]),
                },
            })
        }
    }
}

pub(super) fn figure_block(n: &Node, cx: &mut Cx) -> R<Figure> {
    n.obj()?;
    let label = n.opt_str("label")?;
    let alt = n.opt_str("alt")?.filter(|s| !s.trim().is_empty());
    let Some(f) = n.get("figure") else {
        return Ok(Figure {
            label,
            title: None,
            caption: None,
            body: FigureBody::Unknown {
                kind: String::new(),
                text: alt.iter().cloned().collect(),
            },
            alt,
        });
    };
    f.obj()?;
    let kind = f.opt_str("type")?.unwrap_or_default();
    let title = f.opt_str("title")?.filter(|s| !s.trim().is_empty());
    let caption = f.opt_str("caption")?.filter(|s| !s.trim().is_empty());
    let body = if kind == "compare" {
        compare(&f, cx)?
    } else {
        let shown = if kind.is_empty() {
            "(none)".into()
        } else {
            format!("`{kind}`")
        };
        cx.warn(
            &f.path().key("type"),
            format!("unknown figure type {shown}: shown by its text"),
        );
        FigureBody::Unknown {
            kind,
            text: strings_in_order(f.v, &["type", "title", "caption"]),
        }
    };
    Ok(Figure {
        label,
        title,
        caption,
        alt,
        body,
    })
}

/// A compare figure's `left` and `right` columns; fields with text that it
/// does not define are reported.
fn compare(f: &Node, cx: &mut Cx) -> R<FigureBody> {
    let col = |key: &str| -> R<Column> {
        let c: raw::Column = typed(&f.req(key, "a column with `title` and `items`")?)?;
        Ok(Column {
            title: text(c.title).unwrap_or_default(),
            items: c.items.into_iter().map(|t| t.0).collect(),
        })
    };
    let body = FigureBody::Compare {
        left: col("left")?,
        right: col("right")?,
    };
    for (key, extra) in f.extra_fields(&["type", "title", "caption", "left", "right"]) {
        if !extra.is_empty() {
            cx.warn(
                &f.path().key(&key),
                format!("unknown field `{key}` on a compare figure: its text is kept"),
            );
        }
    }
    Ok(body)
}
