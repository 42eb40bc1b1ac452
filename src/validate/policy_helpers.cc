#include "validate/policy_helpers.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include "typed/quantity.h"

namespace tjr::validate {

const doc::Node* Trainer(const WebhookInfo& info) { return doc::At(doc::At(info.trainjob, "spec"), "trainer"); }

// resource.Quantity.Value(): the amount rounded up to an integer.
std::int64_t CeilValue(const doc::Node& quantity) {
  std::string text;
  if (quantity.is_string()) {
    text = quantity.string_value();
  } else if (quantity.is_int()) {
    return quantity.int_value();
  } else {
    return 0;
  }
  Result<typed::Quantity> parsed = typed::Quantity::Parse(text);
  if (!parsed.ok()) return 0;
  const std::string canonical = parsed->String();
  std::size_t end = 0;
  while (end < canonical.size() && (std::isdigit(static_cast<unsigned char>(canonical[end])) || canonical[end] == '-' ||
                                    canonical[end] == '+' || canonical[end] == '.')) {
    ++end;
  }
  long double amount = std::strtold(canonical.substr(0, end).c_str(), nullptr);
  const std::string suffix = canonical.substr(end);
  static const std::pair<std::string_view, long double> kSuffixes[] = {
      {"n", 1e-9L}, {"u", 1e-6L},  {"m", 1e-3L},   {"k", 1e3L},  {"M", 1e6L},  {"G", 1e9L},
      {"T", 1e12L}, {"P", 1e15L},  {"E", 1e18L},   {"Ki", 1024.0L}, {"Mi", 1048576.0L},
      {"Gi", 1073741824.0L}, {"Ti", 1099511627776.0L}, {"Pi", 1125899906842624.0L},
      {"Ei", 1152921504606846976.0L}};
  if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E') && suffix.size() > 1) {
    amount *= std::pow(10.0L, std::strtold(suffix.c_str() + 1, nullptr));
  } else {
    for (const auto& [name, scale] : kSuffixes) {
      if (suffix == name) amount *= scale;
    }
  }
  return static_cast<std::int64_t>(std::ceil(amount));
}

// numGPU: the first resource whose name contains "gpu" (any case). Go
// ranges over the map in random order; this takes the first in key order.
int NumGpu(const doc::Node* list) {
  std::vector<const doc::Field*> fields;
  if (list != nullptr) {
    for (const doc::Field& field : list->fields()) fields.push_back(&field);
  }
  std::sort(fields.begin(), fields.end(), [](const doc::Field* a, const doc::Field* b) { return a->key < b->key; });
  for (const doc::Field* field : fields) {
    std::string lower = field->key;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("gpu") != std::string::npos) return static_cast<int>(CeilValue(field->value));
  }
  return 0;
}

int GpuPerNode(const doc::Node* resources) {
  if (resources == nullptr) return 0;
  const int requested = NumGpu(doc::At(resources, "requests"));
  const int limited = NumGpu(doc::At(resources, "limits"));
  return requested == 0 && limited > 0 ? limited : requested;
}

// ExtractResourcePerNodeFromRuntime: the first job named `node` or labelled
// ancestor `trainer` that has a container `node`; that container's resources
// (always present in the typed template, if only as {}).
const doc::Node* RuntimeResources(const WebhookInfo& info, bool* found) {
  *found = false;
  for (const doc::Node& job : doc::Items(doc::At(&info.jobset_spec, "replicatedJobs"))) {
    const doc::Node* labels = doc::At(doc::At(doc::At(&job, "template"), "metadata"), "labels");
    if (doc::StringAt(&job, "name") != "node" && doc::StringAt(labels, "trainer.kubeflow.org/trainjob-ancestor-step") != "trainer") {
      continue;
    }
    const doc::Node* pod_spec = doc::At(doc::At(doc::At(doc::At(&job, "template"), "spec"), "template"), "spec");
    for (const doc::Node& container : doc::Items(doc::At(pod_spec, "containers"))) {
      if (doc::StringAt(&container, "name") == "node") {
        *found = true;
        return doc::At(&container, "resources");
      }
    }
  }
  return nullptr;
}

// getModelFromRuntimeRef.
std::string ModelOf(const std::string& runtime_name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t dash = runtime_name.find('-', start);
    parts.push_back(runtime_name.substr(start, dash == std::string::npos ? dash : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  if (parts.size() != 3) return "";
  std::replace(parts[1].begin(), parts[1].end(), '.', '_');
  for (char& c : parts[2]) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return parts[1] + "/" + parts[2];
}

bool AnyArgContains(const doc::Node* args, std::string_view needle) {
  for (const doc::Node& arg : doc::Items(args)) {
    if (arg.is_string() && arg.string_value().find(needle) != std::string::npos) return true;
  }
  return false;
}

}  // namespace tjr::validate
