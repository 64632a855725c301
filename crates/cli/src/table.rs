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
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = " ".repeat(indent);
            for (i, cell) in row.iter().enumerate().take(columns) {
                line.push_str(cell);
                if i + 1 < columns {
                    line.push_str(&" ".repeat(widths[i] - cell.chars().count() + 2));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
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
    fn wrap_keeps_width() {
        let text = wrap("one two three four five six", 12, 2);
        assert!(text.lines().all(|l| l.len() <= 12), "{text}");
        assert_eq!(text.split_whitespace().count(), 6);
    }
}
