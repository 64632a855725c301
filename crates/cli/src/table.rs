//! Plain-text tables and wrapped paragraphs for the terminal.

/// Columns of text, left-aligned, padded to the widest cell.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn render(&self, indent: usize) -> String {
        let columns = self.header.len();
        let mut widths = vec![0; columns];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (i, cell) in row.iter().enumerate().take(columns) {
                widths[i] = widths[i].max(visible_width(cell));
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = " ".repeat(indent);
            for (i, cell) in row.iter().enumerate().take(columns) {
                line.push_str(cell);
                if i + 1 < columns {
                    line.push_str(&" ".repeat(widths[i] - visible_width(cell) + 2));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// The columns a cell takes on a terminal: its characters, less the SGR
/// colour sequences (`ESC [ … m`) a coloured cell carries.
fn visible_width(cell: &str) -> usize {
    let mut width = 0;
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            width += 1;
        }
    }
    width
}

/// Wraps `text` to `width` columns, every line starting with `indent` spaces.
pub fn wrap(text: &str, width: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&pad);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&pad);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_columns() {
        let mut t = Table::new(&["id", "n"]);
        t.row(vec!["long-name".into(), "1".into()]);
        assert_eq!(t.render(0), "id         n\nlong-name  1\n");
    }

    #[test]
    fn a_coloured_cell_is_padded_by_what_shows() {
        let mut table = Table::new(&["verdict", "note"]);
        table.row(vec!["\x1b[32mreproduced\x1b[0m".into(), "[1]".into()]);
        table.row(vec!["inconclusive".into(), "[2]".into()]);
        let text = table.render(0);
        let notes: Vec<usize> = text
            .lines()
            .skip(1)
            .map(|l| visible_width(&l[..l.rfind('[').unwrap()]))
            .collect();
        assert_eq!(notes, [14, 14], "{text:?}");
    }

    #[test]
    fn wrap_keeps_width() {
        let text = wrap("one two three four five six", 12, 2);
        assert!(text.lines().all(|l| l.len() <= 12), "{text}");
        assert_eq!(text.split_whitespace().count(), 6);
    }
}
