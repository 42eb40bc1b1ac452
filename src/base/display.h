#pragma once

#include <string>
#include <string_view>

// File names and YAML values as the text that people and CI logs read
// shows them. A name may hold any byte but '/' and NUL: a newline would
// split a finding in two (and let the second line pose as another
// finding), ESC would drive the terminal, and a line that starts with `::`
// is a workflow command to GitHub Actions. Every such byte becomes a
// C-style escape, as git prints paths (core.quotePath): "a\nb.yaml",
// "\033[31m.yaml", invalid UTF-8 as "\377". Valid UTF-8 text is kept.
namespace tjr {

/// `name` unchanged when it is plain, else in double quotes with C-style
/// escapes (`\n`, `\t`, `\"`, `\\`, octal `\033` for other controls, C1
/// controls, bidirectional overrides and bytes that are not UTF-8), as git
/// quotes paths. A name that starts with `::` is quoted too.
std::string QuotedName(std::string_view name);

/// Whether QuotedName quotes `name`.
bool NeedsQuoting(std::string_view name);

/// `text` (a message, which may quote names and values) with the same
/// escapes for the bytes a terminal or a log would act on; quotes and
/// backslashes are kept.
std::string EscapedForDisplay(std::string_view text);

/// `text` with every byte of an unsafe code point (as EscapedForDisplay
/// sees them) and every byte that is not UTF-8 written `%XX`, the rest
/// kept: for a value that must stay one opaque token, such as the `file=`
/// property of a GitHub annotation.
std::string PercentEncodedUnsafe(std::string_view text);

/// EscapedForDisplay for text that starts a line of its own: a `::` at the
/// start is written `\072:`, so the line is no workflow command.
std::string EscapedLine(std::string_view text);

}  // namespace tjr
