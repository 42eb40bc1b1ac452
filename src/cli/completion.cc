#include "cli/completion.h"

namespace tjr::cli {
namespace {

std::string Join(const std::vector<std::string>& words, const std::string& separator = " ") {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : separator) + word;
  return out;
}

// The values an option completes to; empty for files (or anything).
std::vector<std::string> Values(const OptionDoc& option) {
  if (option.long_name == "target") return TargetNames(TakesFlyteTargets(option));
  return option.choices;
}

// `text` inside a single-quoted shell word.
std::string SingleQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A description as one short line for a completion menu: an option's up to
// its first clause, a command's summary whole, both cut at 70 characters.
std::string Short(const std::string& description, bool first_clause = true) {
  std::size_t end = first_clause ? description.find_first_of(";:(") : std::string::npos;
  std::string out = description.substr(0, end);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > 70) out = out.substr(0, out.rfind(' ', 67)) + "...";
  return out;
}

// zsh's _arguments spec text: brackets and colons are syntax there.
std::string ZshEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::vector<std::string> CommandNames(const std::vector<CommandDoc>& commands) {
  std::vector<std::string> names;
  for (const CommandDoc& command : commands) names.push_back(command.name);
  return names;
}

}  // namespace

std::string BashCompletion(const std::vector<CommandDoc>& commands) {
  std::string out =
      "# bash completion for tjrender (generated from its option tables; do not edit)\n"
      "_tjrender() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
      "  if (( COMP_CWORD == 1 )); then\n"
      "    COMPREPLY=($(compgen -W '" + Join(CommandNames(commands)) + " help --help --version' -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  local options='' valued='' values=''\n"
      "  case ${COMP_WORDS[1]} in\n"
      "    help) (( COMP_CWORD == 2 )) && COMPREPLY=($(compgen -W '" + Join(CommandNames(commands)) +
      "' -- \"$cur\")); return ;;\n";
  for (const CommandDoc& command : commands) {
    std::vector<std::string> flags, valued;
    std::string value_cases;
    for (const OptionDoc& option : command.options) {
      std::vector<std::string> names = {"--" + option.long_name};
      if (!option.short_name.empty()) names.push_back("-" + option.short_name);
      for (const std::string& name : names) flags.push_back(name);
      if (!option.takes_value) continue;
      for (const std::string& name : names) valued.push_back(name);
      std::vector<std::string> values = Values(option);
      if (!values.empty()) value_cases += "        " + Join(names, "|") + ") values=" + SingleQuoted(Join(values)) + " ;;\n";
    }
    out += "    " + command.name + ")\n      options=" + SingleQuoted(Join(flags)) + "\n";
    if (!value_cases.empty()) out += "      case $prev in\n" + value_cases + "      esac\n";
    out += "      valued=" + SingleQuoted(Join(valued)) + " ;;\n";
  }
  out +=
      "  esac\n"
      "  if [[ -n $values ]]; then\n"
      "    COMPREPLY=($(compgen -W \"$values\" -- \"$cur\"))\n"
      "  elif [[ \" $valued \" == *\" $prev \"* || $cur != -* ]]; then\n"
      "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      "  else\n"
      "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
      "  fi\n"
      "}\n"
      "complete -o filenames -F _tjrender tjrender\n";
  return out;
}

std::string ZshCompletion(const std::vector<CommandDoc>& commands) {
  std::string out =
      "#compdef tjrender\n"
      "# zsh completion for tjrender (generated from its option tables; do not edit)\n"
      "_tjrender() {\n"
      "  local -a commands\n"
      "  commands=(\n";
  for (const CommandDoc& command : commands) {
    out += "    " + SingleQuoted(command.name + ":" + ZshEscape(Short(command.summary, false))) + "\n";
  }
  out +=
      "  )\n"
      "  if (( CURRENT == 2 )); then\n"
      "    _describe -t commands 'tjrender command' commands\n"
      "    _arguments '--help[list the commands]' '--version[print the version]'\n"
      "    return\n"
      "  fi\n"
      "  local command=$words[2]\n"
      "  shift words\n"
      "  (( CURRENT-- ))\n"
      "  case $command in\n"
      "    help) _describe -t commands 'tjrender command' commands ;;\n";
  for (const CommandDoc& command : commands) {
    out += "    " + command.name + ")\n      _arguments -s \\\n";
    for (const OptionDoc& option : command.options) {
      std::string description = "[" + ZshEscape(Short(option.description)) + "]";
      std::string action;
      if (option.takes_value) {
        std::vector<std::string> values = Values(option);
        action = ":" + ZshEscape(option.value_name) + ":" + (values.empty() ? "_files" : "(" + Join(values) + ")");
      }
      std::string suffix = option.takes_value ? "=" : "";
      if (option.short_name.empty()) {
        out += "        " + SingleQuoted("--" + option.long_name + suffix + description + action) + " \\\n";
      } else {
        std::string exclusive = "(-" + option.short_name + " --" + option.long_name + ")";
        out += "        " + SingleQuoted(exclusive + "-" + option.short_name + description + action) + " \\\n";
        out += "        " + SingleQuoted(exclusive + "--" + option.long_name + suffix + description + action) +
               " \\\n";
      }
    }
    out += "        '*:file:_files' ;;\n";
  }
  out += "  esac\n}\n_tjrender \"$@\"\n";
  return out;
}

std::string FishCompletion(const std::vector<CommandDoc>& commands) {
  const std::string names = Join(CommandNames(commands));
  std::string out =
      "# fish completion for tjrender (generated from its option tables; do not edit)\n"
      "complete -c tjrender -n '__fish_use_subcommand' -l help -s h -d 'list the commands'\n"
      "complete -c tjrender -n '__fish_use_subcommand' -l version -d 'print the version'\n"
      "complete -c tjrender -n '__fish_use_subcommand' -f -a help -d 'show a command'\\''s help'\n"
      "complete -c tjrender -n '__fish_seen_subcommand_from help' -f -a " + SingleQuoted(names) + "\n";
  for (const CommandDoc& command : commands) {
    out += "complete -c tjrender -n '__fish_use_subcommand' -f -a " + command.name + " -d " +
           SingleQuoted(Short(command.summary, false)) + "\n";
    const std::string when = " -n " + SingleQuoted("__fish_seen_subcommand_from " + command.name);
    for (const OptionDoc& option : command.options) {
      std::string line = "complete -c tjrender" + when + " -l " + option.long_name;
      if (!option.short_name.empty()) line += " -s " + option.short_name;
      if (option.takes_value) {
        std::vector<std::string> values = Values(option);
        line += values.empty() ? " -r -F" : " -x -a " + SingleQuoted(Join(values));
      }
      out += line + " -d " + SingleQuoted(Short(option.description)) + "\n";
    }
  }
  return out;
}

}  // namespace tjr::cli
