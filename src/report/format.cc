#include "report/format.h"

namespace tjr::report {
namespace {

struct KnownRule {
  std::string_view id;
  std::string_view description;
};

constexpr KnownRule kKnownRules[] = {
    {"override-container-unknown",
     "an override names a container the target job does not have, so it has no image"},
    {"volume-two-sources", "a volume of the rendered pod has more than one source"},
    {"env-value-and-valuefrom", "an env var has both a non-empty value and valueFrom"},
    {"volume-mount-without-volume", "a volumeMount names no volume of the pod"},
    {"ignore-without-reason", "a tjrender.dev/ignore annotation without a reason"},
    {"duplicate-object", "two objects of the same kind, namespace and name; neither is rendered"},
    {"secret-not-rendered",
     "rendered pods mount a Secret the Trainer controller creates and an offline render cannot"},
    {"namespace-required",
     "a rendered object names the namespace, which a Helm post-renderer is not told: pass --namespace"},
    {"upstream/invalid-value", "the API server or the Trainer webhook: Invalid value"},
    {"upstream/required-value", "the API server or the Trainer webhook: Required value"},
    {"upstream/forbidden", "the API server or the Trainer webhook: Forbidden"},
    {"upstream/duplicate-value", "the API server or the Trainer webhook: Duplicate value"},
    {"upstream/unsupported-value", "the API server or the Trainer webhook: Unsupported value"},
    {"upstream/not-found", "the API server or the Trainer webhook: Not found"},
    {"upstream/too-long", "the API server or the Trainer webhook: Too long"},
    {"upstream/too-many", "the API server or the Trainer webhook: Too many"},
    {"upstream/internal-error", "the API server or the Trainer webhook: Internal error"},
    {"upstream/error", "an error the cluster would return"},
    {"upstream/warning", "a warning the cluster would return"},
    {"input", "input that cannot be used (unreadable, malformed, over a limit)"},
};

}  // namespace

std::optional<Format> ParseFormat(std::string_view name) {
  if (name == "text") return Format::kText;
  if (name == "json") return Format::kJson;
  if (name == "junit") return Format::kJunit;
  if (name == "sarif") return Format::kSarif;
  if (name == "github") return Format::kGithub;
  return std::nullopt;
}

const char* FormatNames() { return "text, json, junit, sarif, github"; }

std::string_view RuleDescription(std::string_view rule) {
  for (const KnownRule& known : kKnownRules) {
    if (known.id == rule) return known.description;
  }
  return {};
}

std::string Write(Format format, const Results& run, const WriteOptions& options) {
  switch (format) {
    case Format::kText: return WriteText(run);
    case Format::kJson: return WriteJson(run);
    case Format::kJunit: return WriteJunit(run);
    case Format::kSarif: return WriteSarif(run, options);
    case Format::kGithub: return WriteGithub(run, options);
  }
  return WriteText(run);
}

std::string WriteText(const Results& run) {
  std::string out;
  for (const Finding& f : run.findings) out += f.diagnostic.ToString() + "\n";
  out += SummaryLine(run) + "\n";
  return out;
}

}  // namespace tjr::report
