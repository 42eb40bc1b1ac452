// The `sarif` report: SARIF 2.1.0 (OASIS Committee Specification), one run
// of the tool "tjrender" with a reportingDescriptor per rule id that occurs
// and a result per finding. GitHub code scanning reads it; the test
// validates it against the official schema (tests/integration/data).
#include <algorithm>
#include <map>

#include "doc/node.h"
#include "json/json.h"
#include "report/format.h"

namespace tjr::report {
namespace {

doc::Node Str(std::string text) { return doc::Node::String(std::move(text)); }
doc::Node Int(std::size_t value) { return doc::Node::Int(static_cast<std::int64_t>(value)); }

doc::Node Text(std::string text) {
  doc::Node message = doc::Node::Mapping();
  message.Set("text", Str(std::move(text)));
  return message;
}

const char* Level(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

// RFC 3986: unreserved characters, sub-delims, ':', '@' and '/' stay; every
// other byte (space, '%', '#', '?', '<', non-ASCII) is percent-encoded.
std::string PercentEncode(std::string_view path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("-._~!$&'()*+,;=:@/").find(static_cast<char>(c)) !=
                    std::string_view::npos;
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Relative paths are relative to the checkout (%SRCROOT%, what GitHub code
// scanning resolves); absolute ones become file: URIs.
doc::Node ArtifactLocation(const std::string& file) {
  doc::Node location = doc::Node::Mapping();
  std::string path = file.rfind("./", 0) == 0 ? file.substr(2) : file;
  if (!path.empty() && path[0] == '/') {
    location.Set("uri", Str("file://" + PercentEncode(path)));
  } else {
    // RFC 3986 §4.2: a relative reference whose first segment holds a ':'
    // reads as a scheme ("c:x.yaml" as scheme c), so that ':' is encoded.
    const std::string encoded = PercentEncode(path);
    const std::size_t slash = std::min(encoded.find('/'), encoded.size());
    std::string uri;
    for (char c : std::string_view(encoded).substr(0, slash)) uri += c == ':' ? "%3A" : std::string(1, c);
    uri += encoded.substr(slash);
    location.Set("uri", Str(uri));
    location.Set("uriBaseId", Str("%SRCROOT%"));
  }
  return location;
}

doc::Node Result(const Finding& f, std::size_t rule_index) {
  const Diagnostic& d = f.diagnostic;
  doc::Node result = doc::Node::Mapping();
  result.Set("ruleId", Str(f.rule));
  result.Set("ruleIndex", Int(rule_index));
  result.Set("level", Str(Level(d.severity)));
  std::string message = MessageWithoutRule(d);
  if (!d.field_path.empty() && message.rfind(d.field_path + ":", 0) != 0) {
    message = d.field_path + ": " + message;
  }
  result.Set("message", Text(message));
  doc::Node location = doc::Node::Mapping();
  if (d.location.known()) {
    doc::Node physical = doc::Node::Mapping();
    physical.Set("artifactLocation", ArtifactLocation(*d.location.file));
    if (d.location.line > 0) {
      doc::Node region = doc::Node::Mapping();
      region.Set("startLine", Int(d.location.line));
      if (d.location.column > 0) region.Set("startColumn", Int(d.location.column));
      physical.Set("region", region);
    }
    location.Set("physicalLocation", physical);
  }
  if (f.object.known() || !d.field_path.empty()) {
    doc::Node logical = doc::Node::Mapping();
    std::string name = f.object.known() ? f.object.Display() : std::string();
    if (!d.field_path.empty()) name += (name.empty() ? "" : " ") + d.field_path;
    logical.Set("fullyQualifiedName", Str(name));
    logical.Set("kind", Str(d.field_path.empty() ? "object" : "member"));
    doc::Node logicals = doc::Node::Sequence();
    logicals.push_back(logical);
    location.Set("logicalLocations", logicals);
  }
  if (!location.empty()) {
    doc::Node locations = doc::Node::Sequence();
    locations.push_back(location);
    result.Set("locations", locations);
  }
  doc::Node properties = doc::Node::Mapping();
  properties.Set("fieldPath", Str(d.field_path));
  if (f.object.known()) properties.Set("object", Str(f.object.Display()));
  result.Set("properties", properties);
  return result;
}

// A reportingDescriptor: code scanning shows shortDescription as the
// alert's title, fullDescription as its text and help under "Rule help".
// A rule the table does not know yet is described by its first finding.
doc::Node Rule(const Finding& first) {
  const RuleHelp known = HelpOf(first.rule);
  const std::string description =
      known.description.empty() ? "tjrender " + first.rule : std::string(known.description);
  const std::string full = known.explanation.empty()
                               ? description + ". As first found: " + MessageWithoutRule(first.diagnostic)
                               : description + ". " + std::string(known.explanation);
  std::string help = known.help.empty() ? "Fix what the message names." : std::string(known.help);
  help += " The rule " + first.rule + " is in the rule list of tjrender's manual (docs/manual.md, Findings).";
  help += first.diagnostic.severity == Severity::kError
              ? " Errors are what the cluster refuses and cannot be ignored."
              : " To keep it with a reason: the annotations tjrender.dev/ignore: " + first.rule +
                    " and tjrender.dev/ignore-reason, or an ignore: entry of .tjrender.yaml.";
  doc::Node rule = doc::Node::Mapping();
  rule.Set("id", Str(first.rule));
  rule.Set("shortDescription", Text(description));
  rule.Set("fullDescription", Text(full));
  rule.Set("help", Text(help));
  return rule;
}

}  // namespace

std::string WriteSarif(const Results& run, const WriteOptions& options) {
  // Rules in order of first occurrence, so the output follows the findings.
  std::map<std::string, std::size_t> rule_index;
  doc::Node rules = doc::Node::Sequence();
  for (const Finding& f : run.findings) {
    if (!rule_index.emplace(f.rule, rule_index.size()).second) continue;
    rules.push_back(Rule(f));
  }
  doc::Node results = doc::Node::Sequence();
  for (const Finding& f : run.findings) results.push_back(Result(f, rule_index[f.rule]));

  doc::Node driver = doc::Node::Mapping();
  driver.Set("name", Str("tjrender"));
  driver.Set("version", Str(options.tool_version));
  driver.Set("rules", rules);
  doc::Node tool = doc::Node::Mapping();
  tool.Set("driver", driver);
  doc::Node sarif_run = doc::Node::Mapping();
  sarif_run.Set("tool", tool);
  sarif_run.Set("columnKind", Str("unicodeCodePoints"));
  sarif_run.Set("results", results);
  doc::Node runs = doc::Node::Sequence();
  runs.push_back(sarif_run);
  doc::Node root = doc::Node::Mapping();
  root.Set("$schema", Str("https://json.schemastore.org/sarif-2.1.0.json"));
  root.Set("version", Str("2.1.0"));
  root.Set("runs", runs);
  return json::Write(root, /*pretty=*/true);
}

}  // namespace tjr::report
