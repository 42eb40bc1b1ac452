#include "cli/command_docs.h"

#include <regex>

#include "cli/command.h"
#include "cli/options.h"
#include "flyte/render.h"
#include "pipeline/pipeline.h"

namespace tjr::cli {
namespace po = boost::program_options;
namespace {

// The word after `flag` in the usage text ("--out DIR" -> "DIR"), where the
// option's value is named; empty when the usage text does not show one.
std::string ValueNameInUsage(const std::string& usage, const std::string& flag) {
  const std::regex pattern("(^|[\\s\\[])" + flag + "[ =]([^\\s\\[\\]]+)");
  std::smatch match;
  std::string synopsis = usage.substr(0, usage.find("\n\n"));
  if (!std::regex_search(synopsis, match, pattern)) return "";
  std::string value = match[2];
  // "--out DIR" names a value; "--check" after "[--out DIR" is another flag.
  if (value.starts_with("--")) return "";
  return value;
}

std::vector<std::string> Choices(const std::string& value_name) {
  std::vector<std::string> choices;
  if (value_name.find('|') == std::string::npos) return choices;
  std::size_t start = 0;
  while (start <= value_name.size()) {
    std::size_t bar = value_name.find('|', start);
    if (bar == std::string::npos) bar = value_name.size();
    choices.push_back(value_name.substr(start, bar - start));
    start = bar + 1;
  }
  return choices;
}

OptionDoc Describe(const po::option_description& option, const std::string& usage) {
  OptionDoc doc;
  doc.long_name = option.long_name();
  std::string shortest = option.canonical_display_name(po::command_line_style::allow_dash_for_short);
  if (shortest.size() == 2 && shortest[0] == '-' && shortest[1] != '-') doc.short_name = shortest.substr(1);
  doc.takes_value = option.semantic()->max_tokens() > 0;
  doc.description = option.description();
  if (doc.takes_value) {
    doc.value_name = ValueNameInUsage(usage, "--" + doc.long_name);
    if (doc.value_name.empty() && !doc.short_name.empty()) {
      doc.value_name = ValueNameInUsage(usage, "-" + doc.short_name);
    }
    doc.choices = Choices(doc.value_name);
    if (doc.value_name.empty()) doc.value_name = "ARG";
  }
  return doc;
}

}  // namespace

std::vector<CommandDoc> CollectCommandDocs() {
  std::vector<CommandDoc> docs;
  for (const Command& command : Commands()) {
    CommandDoc doc{command.name, command.summary, "", {}};
    SetHelpObserver([&doc](const char* usage, const po::options_description& named) {
      doc.usage = usage;
      for (const auto& option : named.options()) doc.options.push_back(Describe(*option, doc.usage));
    });
    command.run({"--help"});
    SetHelpObserver(nullptr);
    docs.push_back(std::move(doc));
  }
  return docs;
}

std::vector<std::string> TargetNames(bool with_flyte) {
  std::vector<std::string> names = pipeline::SupportedTargets();
  if (with_flyte) {
    for (const std::string& name : flyte::SupportedFlyteTargets()) names.push_back(name);
  }
  return names;
}

bool TakesFlyteTargets(const OptionDoc& option) {
  return option.long_name == "target" && option.description.find("flyte-v") != std::string::npos;
}

}  // namespace tjr::cli
