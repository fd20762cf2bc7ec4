//! Text helpers shared by the reports: aligned tables.

/// Rows of cells printed in aligned columns.
#[derive(Debug, Default)]
pub struct TextTable {
    rows: Vec<Vec<String>>,
}

impl TextTable {
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The table with two spaces between columns; the columns in `left` are aligned left, the
    /// others right.
    pub fn render(&self, left: &[usize]) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let width = |c: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let pad = widths[c] - cell.chars().count();
                if left.contains(&c) {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                } else {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

impl TextTable {
    /// The table in Markdown, its first row the header; columns in `left` aligned left, the
    /// others right. Cells are taken as they are (a cell may hold spaces).
    pub fn markdown(&self, left: &[usize]) -> String {
        let mut out = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            out.push_str(&format!("| {} |\n", row.join(" | ")));
            if i == 0 {
                let rule: String = (0..row.len())
                    .map(|c| if left.contains(&c) { "---|" } else { "---:|" })
                    .collect();
                out.push_str(&format!("|{rule}\n"));
            }
        }
        out
    }

    /// The table in Markdown or for a terminal (`render`).
    pub fn written(&self, markdown: bool, left: &[usize]) -> String {
        if markdown {
            self.markdown(left)
        } else {
            self.render(left)
        }
    }
}

impl TextTable {
    /// The table as an HTML table, its first row the header; columns in `left` aligned left.
    pub fn html(&self, left: &[usize]) -> String {
        let mut out = String::from("<div class=\"scroll\"><table>\n");
        for (i, row) in self.rows.iter().enumerate() {
            out.push_str("<tr>");
            for (c, cell) in row.iter().enumerate() {
                let tag = if i == 0 { "th" } else { "td" };
                let class = if left.contains(&c) {
                    " class=\"label\""
                } else {
                    ""
                };
                out.push_str(&format!(
                    "<{tag}{class}>{}</{tag}>",
                    super::html::escape(cell)
                ));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table></div>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_keeps_cells_with_spaces() {
        let mut t = TextTable::default();
        t.push(vec!["id".into(), "rating".into()]);
        t.push(vec!["van Dijk".into(), "2100".into()]);
        assert_eq!(
            t.markdown(&[0]),
            "| id | rating |\n|---|---:|\n| van Dijk | 2100 |\n"
        );
    }

    #[test]
    fn columns_align() {
        let mut t = TextTable::default();
        t.push(vec!["a".into(), "bb".into(), "1".into()]);
        t.push(vec!["ccc".into(), "d".into(), "22".into()]);
        assert_eq!(t.render(&[1]), "  a  bb   1\nccc  d   22\n");
    }
}
