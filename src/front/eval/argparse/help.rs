//! The usage line and help text of a parser, as CPython 3.11's
//! `HelpFormatter` (and its ArgumentDefaults/Raw variants) lays them out.
use super::{Action, Formatter, Nargs, Parser, SUPPRESS};
use crate::front::value::{Show, Value};

impl Parser {
    pub(super) fn usage_text(&self) -> String {
        let prefix = "usage: ";
        if let Some(u) = &self.usage {
            return format!("{prefix}{}\n", u.replace("%(prog)s", &self.prog));
        }
        let parts = |positional: bool| -> Vec<String> {
            self.actions
                .iter()
                .filter(|a| {
                    a.options.is_empty() == positional && a.help.as_deref() != Some(SUPPRESS)
                })
                .map(|a| a.usage_part())
                .collect()
        };
        let (opt, pos) = (parts(false), parts(true));
        let all: Vec<&str> = std::iter::once(self.prog.as_str())
            .chain(opt.iter().map(String::as_str))
            .chain(pos.iter().map(String::as_str))
            .collect();
        let usage = all.join(" ");
        let width = text_width();
        if prefix.len() + usage.len() <= width {
            return format!("{prefix}{usage}\n");
        }
        // CPython's wrapping: optionals after the program name, positionals
        // on lines of their own, both indented under the first.
        let lines_of = |parts: &[&str], indent: &str, first: bool| -> Vec<String> {
            let mut lines = Vec::new();
            let mut line: Vec<&str> = Vec::new();
            let mut len = if first { prefix.len() } else { indent.len() } - 1;
            for part in parts {
                if len + 1 + part.len() > width && !line.is_empty() {
                    lines.push(format!("{indent}{}", line.join(" ")));
                    line.clear();
                    len = indent.len() - 1;
                }
                line.push(part);
                len += part.len() + 1;
            }
            if !line.is_empty() {
                lines.push(format!("{indent}{}", line.join(" ")));
            }
            if first {
                if let Some(l) = lines.first_mut() {
                    *l = l[indent.len()..].to_string();
                }
            }
            lines
        };
        let opt: Vec<&str> = opt.iter().map(String::as_str).collect();
        let pos: Vec<&str> = pos.iter().map(String::as_str).collect();
        let lines = if (prefix.len() + self.prog.len()) as f64 <= 0.75 * width as f64 {
            let indent = " ".repeat(prefix.len() + self.prog.len() + 1);
            let prog = [self.prog.as_str()];
            if !opt.is_empty() {
                let mut l = lines_of(&[&prog[..], &opt].concat(), &indent, true);
                l.extend(lines_of(&pos, &indent, false));
                l
            } else if !pos.is_empty() {
                lines_of(&[&prog[..], &pos].concat(), &indent, true)
            } else {
                vec![self.prog.clone()]
            }
        } else {
            let indent = " ".repeat(prefix.len());
            let mut l = vec![self.prog.clone()];
            if opt.len() + pos.len() > 0 {
                l.extend(lines_of(&[&opt[..], &pos].concat(), &indent, false));
            }
            l
        };
        format!("{prefix}{}\n", lines.join("\n"))
    }

    pub(super) fn help_text(&self) -> String {
        let width = text_width();
        let mut out = self.usage_text();
        out.push('\n');
        let raw = matches!(
            self.formatter,
            Formatter::RawDescription | Formatter::RawText
        );
        let text = |t: &str, indent: usize| -> String {
            let t = t.replace("%(prog)s", &self.prog);
            let pad = " ".repeat(indent);
            if raw {
                t.split_inclusive('\n')
                    .map(|l| format!("{pad}{l}"))
                    .collect::<String>()
                    + "\n\n"
            } else {
                let w = wrap(&t, width.saturating_sub(indent).max(11));
                w.iter()
                    .map(|l| format!("{pad}{l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
                    + "\n\n"
            }
        };
        if let Some(d) = &self.description {
            out.push_str(&text(d, 0));
        }
        let shown: Vec<&Action> = self
            .actions
            .iter()
            .filter(|a| a.help.as_deref() != Some(SUPPRESS))
            .collect();
        let max_len = shown
            .iter()
            .map(|a| a.invocation().len() + 2)
            .max()
            .unwrap_or(0);
        let help_position = (max_len + 2).min(24.min(width.saturating_sub(20).max(4)));
        let help_width = width.saturating_sub(help_position).max(11);
        for (g, (title, description)) in self.groups.iter().enumerate() {
            let mut items = String::new();
            if let Some(d) = description {
                items.push_str(&text(d, 2));
            }
            for a in shown.iter().filter(|a| a.group == g) {
                items.push_str(&self.action_help(a, help_position, help_width));
            }
            if items.is_empty() {
                continue;
            }
            match title {
                Some(title) => out.push_str(&format!("\n{title}:\n{items}\n")),
                None => out.push_str(&format!("\n{items}\n")),
            }
        }
        if let Some(e) = &self.epilog {
            out.push_str(&text(e, 0));
        }
        // CPython collapses runs of blank lines and ends with one newline.
        let mut collapsed = String::new();
        for line in out.split('\n') {
            if line.is_empty() && collapsed.ends_with("\n\n") {
                continue;
            }
            collapsed.push_str(line);
            collapsed.push('\n');
        }
        collapsed.trim_matches('\n').to_string() + "\n"
    }

    fn action_help(&self, a: &Action, help_position: usize, help_width: usize) -> String {
        let indent = 2;
        let action_width = help_position.saturating_sub(indent + 2);
        let header = a.invocation();
        let help = a.help.as_ref().filter(|h| !h.trim().is_empty());
        let Some(help) = help else {
            return format!("{:indent$}{header}\n", "");
        };
        let mut out;
        let indent_first;
        if header.len() <= action_width {
            out = format!("{:indent$}{header:<action_width$}  ", "");
            indent_first = 0;
        } else {
            out = format!("{:indent$}{header}\n", "");
            indent_first = help_position;
        }
        let mut text = help.clone();
        if self.formatter == Formatter::ArgumentDefaults
            && !text.contains("%(default)")
            && !matches!(&a.default, Value::Str(s) if &**s == SUPPRESS)
            && (!a.options.is_empty() || matches!(a.nargs, Nargs::Optional | Nargs::ZeroOrMore))
        {
            text.push_str(" (default: %(default)s)");
        }
        let text = self.expand(a, &text);
        let lines = if self.formatter == Formatter::RawText {
            text.lines().map(str::to_string).collect()
        } else {
            wrap(&text, help_width)
        };
        for (i, line) in lines.iter().enumerate() {
            let pad = if i == 0 { indent_first } else { help_position };
            out.push_str(&format!("{:pad$}{line}\n", ""));
        }
        if lines.is_empty() {
            out.push('\n');
        }
        out
    }

    /// `%(default)s`, `%(prog)s`, ... in a help string.
    fn expand(&self, a: &Action, text: &str) -> String {
        let show = |v: &Value| Show(v, false).to_string();
        let mut out = text.replace("%(prog)s", &self.prog);
        out = out.replace("%(default)s", &show(&a.default));
        out = out.replace("%(dest)s", &a.dest);
        out = out.replace("%(const)s", &show(&a.konst));
        out = out.replace("%(required)s", if a.required { "True" } else { "False" });
        if let Some(m) = &a.metavar {
            out = out.replace("%(metavar)s", m);
        }
        if let Some(c) = &a.choices {
            let items: Vec<String> = c.iter().map(|v| Show(v, false).to_string()).collect();
            out = out.replace("%(choices)s", &items.join(", "));
        }
        out.replace("%%", "%")
    }
}

/// The help's width: `$COLUMNS` (default 80) less 2, as CPython's `HelpFormatter`.
fn text_width() -> usize {
    let cols = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80);
    cols.saturating_sub(2).max(11)
}

/// `textwrap.wrap` of the text with its whitespace collapsed.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word;
        while word.chars().count() > width && line.is_empty() {
            let cut = word
                .char_indices()
                .nth(width)
                .map_or(word.len(), |(i, _)| i);
            lines.push(word[..cut].to_string());
            word = &word[cut..];
        }
        if word.is_empty() {
            continue;
        }
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_the_width_like_textwrap() {
        assert_eq!(wrap("a bb ccc dddd", 6), vec!["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("  spaced   out  ", 80), vec!["spaced out"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
    }
}
