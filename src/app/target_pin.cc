#include "app/target_pin.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "doc/path.h"
#include "pipeline/target.h"
#include "source/object_types.h"
#include "yaml/reader.h"

namespace tjr::app {
namespace {

// Pin files are small; anything larger is no kustomization or chart.
constexpr std::size_t kMaxPinFileBytes = std::size_t{1} << 20;

std::string Join(const std::string& directory, const std::string& name) {
  if (directory.empty() || directory == ".") return name;
  if (directory.ends_with('/')) return directory + name;
  return directory + "/" + name;
}

bool IsKustomization(const std::string& name) {
  // kustomize's konfig.RecognizedKustomizationFileNames.
  return name == "kustomization.yaml" || name == "kustomization.yml" || name == "Kustomization";
}

// The `ref` (or `version`) query parameter of a kustomize remote target on
// kubeflow/trainer's repository ("https://github.com/kubeflow/trainer.git/
// manifests/overlays/manager?ref=v2.1.0", "github.com/kubeflow/trainer//
// manifests?ref=v2.1.0"), or "" for any other entry.
std::string TrainerRef(std::string_view entry) {
  std::size_t repo = std::string_view::npos;
  for (std::string_view host : {"github.com/kubeflow/trainer", "github.com:kubeflow/trainer"}) {
    repo = entry.find(host);
    if (repo != std::string_view::npos) {
      repo += host.size();
      break;
    }
  }
  if (repo == std::string_view::npos) return "";
  // kubeflow/trainer itself, not kubeflow/trainer-something.
  if (repo < entry.size() && entry[repo] != '/' && entry[repo] != '.' && entry[repo] != '?') return "";
  const std::size_t query = entry.find('?', repo);
  if (query == std::string_view::npos) return "";
  std::string_view params = entry.substr(query + 1);
  while (!params.empty()) {
    const std::size_t amp = params.find('&');
    const std::string_view param = params.substr(0, amp);
    for (std::string_view key : {"ref=", "version="}) {
      if (param.starts_with(key)) return std::string(param.substr(key.size()));
    }
    if (amp == std::string_view::npos) break;
    params.remove_prefix(amp + 1);
  }
  return "";
}

// "v2.1.0", "2.1.0", "v2.1": numbers only, two or three of them.
bool IsReleaseVersion(std::string_view version) {
  if (version.starts_with('v')) version.remove_prefix(1);
  int parts = 0;
  while (true) {
    std::size_t digits = 0;
    while (digits < version.size() && version[digits] >= '0' && version[digits] <= '9') ++digits;
    if (digits == 0) return false;
    ++parts;
    version.remove_prefix(digits);
    if (version.empty()) return parts >= 2 && parts <= 3;
    if (version.front() != '.') return false;
    version.remove_prefix(1);
  }
}

// A YAML file whose name says it may hold a Flux HelmRelease or an Argo CD
// Application of Trainer ("helmrelease.yaml", "kubeflow-trainer.yaml",
// "trainer-app.yaml", "applications.yaml") or the controller's Deployment
// ("manager.yaml" of the upstream manifests, "controller.yaml",
// "install.yaml"): such objects may live in any file, and reading every
// file for them would double the reads.
bool MayHoldDeployObject(const std::string& name) {
  if (!name.ends_with(".yaml") && !name.ends_with(".yml")) return false;
  if (IsKustomization(name) || name == "Chart.yaml") return false;
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (std::string_view word :
       {"trainer", "release", "application", "app.", "manager", "controller", "deployment", "install"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return lower.find("-app") != std::string::npos || lower.find("_app") != std::string::npos;
}

std::string Group(const doc::Node& object) { return source::ApiGroup(doc::StringAt(object, "apiVersion")); }

class PinScan {
 public:
  explicit PinScan(const source::Tree& tree) : tree_(tree) {}

  void Walk(const std::string& directory) {
    Result<std::vector<source::DirEntry>> entries = tree_.List(directory);
    if (!entries.ok()) return;
    std::sort(entries->begin(), entries->end(),
              [](const source::DirEntry& a, const source::DirEntry& b) { return a.name < b.name; });
    for (const source::DirEntry& entry : *entries) {
      const std::string path = Join(directory, entry.name);
      if (entry.type == source::EntryType::kDirectory) {
        if (!entry.name.starts_with('.')) Walk(path);
      } else if (entry.type == source::EntryType::kFile && entry.left_out.empty()) {
        if (IsKustomization(entry.name)) Read(path, &PinScan::Kustomization);
        if (entry.name == "Chart.yaml") Read(path, &PinScan::Chart);
        if (MayHoldDeployObject(entry.name)) Read(path, &PinScan::DeployObject);
      }
    }
  }

  std::vector<TargetPin> pins;

 private:
  using Reader = void (PinScan::*)(const std::string& file, const doc::Node& document);

  void Read(const std::string& path, Reader reader) {
    Result<std::string> text = tree_.Read(path, kMaxPinFileBytes);
    if (!text.ok()) return;  // the loader reports what it cannot read
    Result<std::vector<doc::Node>> documents = yaml::ReadStream(*text, path);
    if (!documents.ok()) return;
    for (const doc::Node& document : *documents) {
      if (document.is_mapping()) (this->*reader)(path, document);
    }
  }

  void Add(const std::string& file, const doc::Node& at, std::string evidence, std::string version) {
    // `latest`, a branch, a commit or a pre-release pins no release.
    if (!IsReleaseVersion(version)) return;
    const pipeline::TargetProfile* target = pipeline::TargetOfReleaseTag(version);
    pins.push_back(TargetPin{file, at.location().line, std::move(evidence), std::move(version),
                             target != nullptr ? std::string(target->name) : std::string()});
  }

  void Kustomization(const std::string& file, const doc::Node& kustomization) {
    for (const char* list : {"resources", "bases", "components"}) {
      for (const doc::Node& entry : doc::Items(doc::At(&kustomization, list))) {
        if (!entry.is_string()) continue;
        std::string ref = TrainerRef(entry.string_value());
        if (!ref.empty()) Add(file, entry, entry.string_value(), std::move(ref));
      }
    }
    for (const doc::Node& image : doc::Items(doc::At(&kustomization, "images"))) {
      const doc::Node* tag = doc::At(&image, "newTag");
      const bool controller = doc::StringAt(image, "name") == kTrainerControllerImage ||
                              doc::StringAt(image, "newName") == kTrainerControllerImage;
      if (!controller || tag == nullptr || !tag->is_string()) continue;
      Add(file, *tag, std::string(kTrainerControllerImage) + ":" + tag->string_value(), tag->string_value());
    }
    ChartEntries(file, doc::At(&kustomization, "helmCharts"));
  }

  void Chart(const std::string& file, const doc::Node& chart) {
    ChartEntries(file, doc::At(&chart, "dependencies"));
  }

  // Flux's HelmRelease (spec.chart.spec.chart and .version) and Argo CD's
  // Application (spec.source or each of spec.sources: a chart with its
  // targetRevision, or kubeflow/trainer's repository at a tag) of Trainer.
  void DeployObject(const std::string& file, const doc::Node& object) {
    const std::string kind = doc::StringAt(object, "kind");
    if (kind == "List") {
      for (const doc::Node& item : doc::Items(doc::At(&object, "items"))) DeployObject(file, item);
      return;
    }
    if (kind == "HelmRelease" && Group(object) == "helm.toolkit.fluxcd.io") {
      const doc::Node* chart = doc::AtPath(&object, {"spec", "chart", "spec"});
      const doc::Node* version = doc::At(chart, "version");
      if (doc::StringAt(chart, "chart") == kTrainerChart && version != nullptr && version->is_string()) {
        Add(file, *version, "HelmRelease " + std::string(kTrainerChart) + " " + version->string_value(),
            version->string_value());
      }
      return;
    }
    if (kind == "Deployment" && Group(object) == "apps") {
      ControllerImage(file, object);
      return;
    }
    if (kind != "Application" || Group(object) != "argoproj.io") return;
    std::vector<const doc::Node*> sources;
    if (const doc::Node* source = doc::AtPath(&object, {"spec", "source"})) sources.push_back(source);
    for (const doc::Node& source : doc::Items(doc::AtPath(&object, {"spec", "sources"}))) sources.push_back(&source);
    for (const doc::Node* source : sources) {
      const doc::Node* revision = doc::At(source, "targetRevision");
      if (revision == nullptr || !revision->is_string()) continue;
      const std::string repo = doc::StringAt(source, "repoURL");
      const bool chart = doc::StringAt(source, "chart") == kTrainerChart;
      const bool manifests = !TrainerRef(repo + "?ref=" + revision->string_value()).empty();
      if (!chart && !manifests) continue;
      Add(file, *revision,
          "Application " + (chart ? std::string(kTrainerChart) : repo) + " " + revision->string_value(),
          revision->string_value());
    }
  }

  // The Trainer controller's Deployment as the upstream manifests write it
  // (manifests/base/manager/manager.yaml), vendored or rendered into the
  // repository: its image's tag is the release.
  void ControllerImage(const std::string& file, const doc::Node& deployment) {
    const doc::Node* pod = doc::AtPath(&deployment, {"spec", "template", "spec"});
    for (const char* list : {"containers", "initContainers"}) {
      for (const doc::Node& container : doc::Items(doc::At(pod, list))) {
        const doc::Node* image = doc::At(&container, "image");
        if (image == nullptr || !image->is_string()) continue;
        const std::string& text = image->string_value();
        const std::string prefix = std::string(kTrainerControllerImage) + ":";
        if (!text.starts_with(prefix)) continue;
        std::string tag = text.substr(prefix.size());
        if (std::size_t digest = tag.find('@'); digest != std::string::npos) tag.resize(digest);
        Add(file, *image, text, std::move(tag));
      }
    }
  }

  // Entries naming the kubeflow-trainer chart with a version (Chart.yaml's
  // dependencies, kustomize's helmCharts).
  void ChartEntries(const std::string& file, const doc::Node* list) {
    for (const doc::Node& entry : doc::Items(list)) {
      const doc::Node* version = doc::At(&entry, "version");
      if (doc::StringAt(entry, "name") != kTrainerChart || version == nullptr || !version->is_string()) continue;
      Add(file, *version, std::string(kTrainerChart) + " chart " + version->string_value(), version->string_value());
    }
  }

  const source::Tree& tree_;
};

std::string Where(const TargetPin& pin) { return pin.file + ":" + std::to_string(pin.line); }

}  // namespace

std::vector<TargetPin> FindTargetPins(const source::Tree& tree, const std::vector<std::string>& paths) {
  PinScan scan(tree);
  for (const std::string& path : paths.empty() ? std::vector<std::string>{"."} : paths) {
    if (path == "-") continue;
    Result<source::EntryType> type = tree.Stat(path);
    if (type.ok() && *type == source::EntryType::kDirectory) scan.Walk(path);
  }
  return std::move(scan.pins);
}

PinnedTarget ChooseFromPins(const std::vector<TargetPin>& pins, const std::string& default_target) {
  PinnedTarget chosen;
  if (pins.empty()) return chosen;
  auto warn = [&](const TargetPin& at, const char* rule, const std::string& message) {
    Location location{InternSourceName(at.file), at.line, 1};
    chosen.warnings.push_back(MakeWarning(location, rule, message));
  };
  for (const TargetPin& pin : pins) {
    if (pin.target.empty()) {
      warn(pin, kTargetPinUnsupportedRule,
           "the repository pins Trainer " + pin.version + " (" + pin.evidence +
               "), a release tjrender does not emulate; the default target " + default_target +
               " applies (pass --target or set target: in .tjrender.yaml)");
      return chosen;
    }
  }
  const TargetPin& first = pins.front();
  for (const TargetPin& pin : pins) {
    if (pin.target == first.target) continue;
    warn(pin, kTargetPinConflictRule,
         "the repository pins Trainer " + pin.version + " here (" + pin.evidence + ") and " + first.version +
             " at " + Where(first) + " (" + first.evidence + "); the default target " + default_target +
             " applies (pass --target or set target: in .tjrender.yaml)");
    return chosen;
  }
  chosen.target = first.target;
  chosen.note = "target " + first.target + " from " + Where(first) + " (" + first.evidence + ")";
  return chosen;
}

}  // namespace tjr::app
