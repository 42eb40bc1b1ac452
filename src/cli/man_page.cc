#include "cli/man_page.h"

#include <algorithm>
#include <cctype>

namespace tjr::cli {
namespace {

std::string Upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

// No date: the same sources give the same bytes (scripts/release).
std::string Header(const std::string& title, std::string_view version) {
  return ".TH " + RoffEscape(Upper(title)) + " 1 \"\" \"tjrender " + RoffEscape(version) +
         "\" \"tjrender manual\"\n";
}

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Paragraphs are filled by roff; indented lines (hand-made tables, examples)
// are kept as they are.
std::string Body(std::string_view text) {
  std::string out;
  bool literal = false;
  for (const std::string& line : Lines(text)) {
    const bool indented = !line.empty() && line[0] == ' ';
    if (indented != literal) {
      out += indented ? ".nf\n" : ".fi\n";
      literal = indented;
    }
    out += line.empty() ? ".PP\n" : RoffEscape(line) + "\n";
  }
  if (literal) out += ".fi\n";
  return out;
}

std::string OptionItem(const OptionDoc& option) {
  std::string item = ".TP\n";
  if (!option.short_name.empty()) item += "\\fB" + RoffEscape("-" + option.short_name) + "\\fR, ";
  item += "\\fB" + RoffEscape("--" + option.long_name) + "\\fR";
  if (option.takes_value) item += " \\fI" + RoffEscape(option.value_name) + "\\fR";
  return item + "\n" + RoffEscape(option.description) + "\n";
}

}  // namespace

std::string RoffEscape(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  return out;
}

std::string CommandManPage(const CommandDoc& command, std::string_view version) {
  const std::string page = "tjrender-" + command.name;
  std::string out = Header(page, version);
  out += ".SH NAME\n" + RoffEscape(page) + " \\- " + RoffEscape(command.summary) + "\n";
  std::string_view usage = command.usage;
  std::size_t split = usage.find("\n\n");
  std::string_view synopsis = usage.substr(0, split);
  // Without "usage: ", and its continuation lines moved left as much.
  std::string lines;
  const std::string_view prefix = "usage: ";
  const bool prefixed = synopsis.starts_with(prefix);
  for (const std::string& line : Lines(prefixed ? synopsis.substr(prefix.size()) : synopsis)) {
    const bool indented = !lines.empty() && prefixed && line.starts_with(std::string(prefix.size(), ' '));
    lines += (indented ? line.substr(prefix.size()) : line) + "\n";
  }
  out += ".SH SYNOPSIS\n.nf\n" + RoffEscape(lines) + ".fi\n";
  if (split != std::string_view::npos) {
    std::string_view description = usage.substr(split + 2);
    while (description.ends_with('\n')) description.remove_suffix(1);
    out += ".SH DESCRIPTION\n" + Body(description);
  }
  out += ".SH OPTIONS\n";
  for (const OptionDoc& option : command.options) out += OptionItem(option);
  out += ".SH SEE ALSO\n\\fBtjrender\\fR(1)\n";
  return out;
}

std::string OverviewManPage(const std::vector<CommandDoc>& commands, std::string_view version,
                            std::string_view version_text) {
  std::string out = Header("tjrender", version);
  out += ".SH NAME\ntjrender \\- render and validate Kubeflow Trainer TrainJobs offline\n";
  out += ".SH SYNOPSIS\n.nf\ntjrender COMMAND [ARGS...]\ntjrender help COMMAND\n"
         "tjrender \\-\\-version\n.fi\n";
  out += ".SH DESCRIPTION\nRenders TrainJobs into the objects the Kubeflow Trainer controller "
         "creates, and validates them with the controller's and the API server's rules and "
         "messages, without a cluster. Each command has its own page; \\fBtjrender help "
         "COMMAND\\fR prints the same text.\n";
  out += ".SH COMMANDS\n";
  for (const CommandDoc& command : commands) {
    out += ".TP\n\\fB" + RoffEscape(command.name) + "\\fR\n" + RoffEscape(command.summary) + "\n";
  }
  out += ".SH OPTIONS\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nlist the commands\n"
         ".TP\n\\fB\\-\\-version\\fR\nprint the version, the commit built from and the "
         "releases each target emulates\n";
  out += ".SH VERSION\n.nf\n" + RoffEscape(version_text) + ".fi\n";
  out += ".SH EXIT STATUS\n0 clean, 1 findings, 2 usage errors or unusable input.\n";
  out += ".SH SEE ALSO\n";
  for (std::size_t i = 0; i < commands.size(); ++i) {
    out += "\\fBtjrender\\-" + RoffEscape(commands[i].name) + "\\fR(1)" +
           (i + 1 < commands.size() ? ",\n" : "\n");
  }
  return out;
}

}  // namespace tjr::cli
