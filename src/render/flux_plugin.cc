// Flux (plugins/flux/flux.go at v2.2.0 and v2.3.0; added in v2.2.0,
// runtimepatches spec §5.13). The scripts are the plugin's go:embed
// templates (policies/flux-templates.json) filled as fmt.Sprintf does.
// v2.3.0 (#3674, #3325 and the shared-memory volume) differs from v2.2.0 in:
// the installer goes into the PodSet (the builder appends its slot) instead
// of straight into the JobSetSpec, a /dev/shm memory volume, and the
// entrypoint's `flux R encode` core/GPU ranges.
#include <string>

#include "render/flux_templates.h"
#include "render/plugins.h"
#include "doc/path.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {
namespace {

// pkg/constants/constants.go (same at v2.2.0 and v2.3.0).
constexpr std::string_view kInstallerImage = "ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy";
constexpr std::string_view kInstallerName = "flux-installer";
constexpr std::string_view kInstallVolume = "flux-install";
constexpr std::string_view kConfigPath = "/etc/flux-config";  // FluxConfigVolumeName, used as a path
constexpr std::string_view kInstallPath = "/mnt/flux";
constexpr std::string_view kCurveVolume = "flux-curve";
constexpr std::string_view kCurvePath = "/curve";
constexpr std::string_view kMemoryVolume = "shared-memory";
constexpr std::string_view kMemoryPath = "/dev/shm";
constexpr std::string_view kSpackVolume = "spack-install";
constexpr std::string_view kSpackPath = "/opt/software";

const doc::Node* FluxPolicy(const Info& info) {
  if (info.ml_policy.is_null()) return nullptr;
  const doc::Node* flux = info.ml_policy.Find("flux");
  return flux != nullptr && !flux->is_null() ? flux : nullptr;
}

const doc::Node* TrainerOf(const doc::Node& trainjob) {
  const doc::Node* trainer = doc::FindPath(trainjob, {"spec", "trainer"});
  return trainer != nullptr && !trainer->is_null() ? trainer : nullptr;
}

const doc::Node* Present(const doc::Node* node) { return node != nullptr && !node->is_null() ? node : nullptr; }

// FindContainerByPodSetAncestorContainerName(trainer, node).
const PodSetContainer* TrainerContainer(const Info& info) {
  for (const PodSet& ps : info.pod_sets) {
    if (ps.ancestor != kAncestorTrainer) continue;
    for (const PodSetContainer& c : ps.containers) {
      if (c.name == kNode) return &c;
    }
    return nullptr;
  }
  return nullptr;
}

// brokerSettingsFromEnvironment: the defaults, overridden by plain values of
// the trainer PodSet container's env, then by the TrainJob's env (whose
// valueFrom entries set "").
StringMap BrokerSettings(const Info& info, const doc::Node& trainer) {
  StringMap settings = {{"FLUX_NETWORK_DEVICE", "eth0"},
                        {"FLUX_QUEUE_POLICY", "fcfs"},
                        {"FLUX_VIEW_IMAGE", std::string(kInstallerImage)}};
  if (const PodSetContainer* c = TrainerContainer(info); c != nullptr && c->env.is_sequence()) {
    for (const doc::Node& env : c->env.items()) {
      const doc::Node* value = env.Find("value");
      auto it = settings.find(doc::StringAtPath(env, {"name"}));
      if (it != settings.end() && value != nullptr && value->is_string()) it->second = value->string_value();
    }
  }
  if (const doc::Node* envs = trainer.Find("env"); envs != nullptr && envs->is_sequence()) {
    for (const doc::Node& env : envs->items()) {
      auto it = settings.find(doc::StringAtPath(env, {"name"}));
      if (it != settings.end()) it->second = doc::StringAtPath(env, {"value"});
    }
  }
  return settings;
}

// The length of the white-space rune (unicode.IsSpace) starting at s[i], or 0.
std::size_t SpaceAt(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  if (c == 0xC2 && i + 1 < s.size() && (byte(i + 1) == 0x85 || byte(i + 1) == 0xA0)) return 2;
  if (i + 2 >= s.size()) return 0;
  const unsigned char b1 = byte(i + 1);
  const unsigned char b2 = byte(i + 2);
  if (c == 0xE1 && b1 == 0x9A && b2 == 0x80) return 3;                                      // U+1680
  if (c == 0xE2 && b1 == 0x80 && (b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF)) return 3;  // U+2000-200A, 2028, 2029, 202F
  if (c == 0xE2 && b1 == 0x81 && b2 == 0x9F) return 3;                                      // U+205F
  if (c == 0xE3 && b1 == 0x80 && b2 == 0x80) return 3;                                      // U+3000
  return 0;
}

// strings.TrimSpace: leading and trailing white space (ASCII and Unicode).
std::string TrimSpace(const std::string& s) {
  std::size_t begin = 0;
  std::size_t end = s.size();
  for (std::size_t n; begin < end && (n = SpaceAt(s, begin)) != 0;) begin += n;
  while (end > begin) {
    std::size_t n = 0;
    for (std::size_t len = 1; len <= 3 && len <= end - begin && n == 0; ++len) {
      if (SpaceAt(s, end - len) == len) n = len;
    }
    if (n == 0) break;
    end -= n;
  }
  return s.substr(begin, end - begin);
}

// getOriginalCommand: the trainer PodSet container's command (set from the
// runtime from v2.3.0), replaced by a non-nil TrainJob command, then the
// TrainJob's args, joined by spaces and trimmed.
std::string OriginalCommand(const Info& info, const doc::Node& trainer) {
  std::vector<std::string> words;
  auto take = [&](const doc::Node* list) {
    if (list == nullptr || !list->is_sequence()) return;
    for (const doc::Node& item : list->items()) words.push_back(item.is_string() ? item.string_value() : "");
  };
  const doc::Node* command = Present(trainer.Find("command"));
  if (command != nullptr) {
    take(command);
  } else if (const PodSetContainer* c = TrainerContainer(info)) {
    take(&c->command);
  }
  take(Present(trainer.Find("args")));
  std::string joined;
  for (std::size_t i = 0; i < words.size(); ++i) joined += (i == 0 ? "" : " ") + words[i];
  return TrimSpace(joined);
}

// generateRange.
std::string Range(std::int32_t size, std::int32_t start) {
  if (size == 1) return std::to_string(start);
  return std::to_string(start) + "-" + std::to_string(static_cast<std::int32_t>(start + size - 1));
}

doc::Node StringList(std::initializer_list<std::string_view> items) {
  doc::Node list = doc::Node::Sequence();
  for (std::string_view item : items) list.push_back(doc::Node::String(std::string(item)));
  return list;
}

doc::Node Mount(std::string_view name, std::string_view path, bool read_only) {
  doc::Node mount = doc::Node::Mapping();
  mount.Set("name", doc::Node::String(std::string(name)));
  if (read_only) mount.Set("readOnly", doc::Node::Bool(true));
  mount.Set("mountPath", doc::Node::String(std::string(path)));
  return mount;
}

doc::Node EmptyDirVolume(std::string_view name, std::string_view medium) {
  doc::Node empty_dir = doc::Node::Mapping();
  if (!medium.empty()) empty_dir.Set("medium", doc::Node::String(std::string(medium)));
  doc::Node volume = doc::Node::Mapping();
  volume.Set("name", doc::Node::String(std::string(name)));
  volume.Set("emptyDir", std::move(empty_dir));
  return volume;
}

// getViewVolumes, then the curve Secret volume.
doc::Node Volumes(const std::string& config_map, const std::string& curve_secret, trainer::TrainerVersion version) {
  doc::Node volumes = doc::Node::Sequence();
  volumes.push_back(EmptyDirVolume(kSpackVolume, ""));
  volumes.push_back(EmptyDirVolume(kInstallVolume, ""));
  doc::Node cm_source = doc::Node::Mapping();
  cm_source.Set("name", doc::Node::String(config_map));
  cm_source.Set("defaultMode", doc::Node::Int(0755));
  doc::Node cm = doc::Node::Mapping();
  cm.Set("name", doc::Node::String(config_map));
  cm.Set("configMap", std::move(cm_source));
  volumes.push_back(std::move(cm));
  if (trainer::ReleaseOf(version).flux_v23_layout) volumes.push_back(EmptyDirVolume(kMemoryVolume, "Memory"));
  doc::Node secret = doc::Node::Mapping();
  secret.Set("secretName", doc::Node::String(curve_secret));
  secret.Set("defaultMode", doc::Node::Int(0400));
  doc::Node curve = doc::Node::Mapping();
  curve.Set("name", doc::Node::String(std::string(kCurveVolume)));
  curve.Set("secret", std::move(secret));
  volumes.push_back(std::move(curve));
  return volumes;
}

doc::Node NodeMounts(const std::string& config_map, trainer::TrainerVersion version) {
  doc::Node mounts = doc::Node::Sequence();
  mounts.push_back(Mount(kInstallVolume, kInstallPath, false));
  mounts.push_back(Mount(kSpackVolume, kSpackPath, false));
  mounts.push_back(Mount(config_map, kConfigPath, true));
  mounts.push_back(Mount(kCurveVolume, kCurvePath, true));
  if (trainer::ReleaseOf(version).flux_v23_layout) mounts.push_back(Mount(kMemoryVolume, kMemoryPath, true));
  return mounts;
}

PodSetContainer Installer(const std::string& image, const std::string& config_map) {
  PodSetContainer installer;
  installer.name = std::string(kInstallerName);
  installer.image = image;
  installer.command = StringList({"/bin/bash", "/etc/flux-config/init.sh"});
  installer.env = doc::Node::Sequence();
  installer.ports = doc::Node::Sequence();
  installer.volume_mounts = doc::Node::Sequence();
  installer.volume_mounts.push_back(Mount(kInstallVolume, kInstallPath, false));
  installer.volume_mounts.push_back(Mount(config_map, kConfigPath, true));
  return installer;
}

// v2.2.0 appends the installer to the JobSetSpec's replicated job directly.
doc::Node InstallerContainer(const PodSetContainer& installer) {
  doc::Node c = doc::Node::Mapping();
  c.Set("name", doc::Node::String(installer.name));
  c.Set("image", doc::Node::String(installer.image));
  c.Set("command", installer.command);
  c.Set("volumeMounts", installer.volume_mounts);
  return c;
}

// generateFluxEntrypoint.
Result<std::string> Entrypoint(const Info& info, const doc::Node& trainjob, const FluxTemplates& templates,
                               std::int32_t nodes, std::int32_t tasks) {
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  const std::string main_host = name + "-node-0-0";
  Result<NodeResources> resources = TrainerResources(info, trainjob);
  if (!resources.ok()) return resources.take_error();
  const std::int64_t gpus = GpuCount(*resources);
  std::string flags = "-N " + std::to_string(nodes) + " -n " + std::to_string(static_cast<std::int32_t>(
                                                                     static_cast<std::int64_t>(tasks) * nodes));
  if (!trainer::ReleaseOf(info.version).flux_v23_layout) {
    if (gpus > 0) flags += " -g " + std::to_string(gpus);
    return SprintfS(templates.entrypoint, {main_host, flags});
  }
  std::string r_spec = "--cores=" + Range(tasks, 0);
  if (gpus > 0) {
    flags += " -g " + std::to_string(gpus);
    r_spec += " --gpu=" + Range(static_cast<std::int32_t>(gpus), 0);
  }
  return SprintfS(templates.entrypoint, {r_spec, main_host, flags});
}

// generateInitEntrypoint with generateHostlist and generateBrokerConfig.
std::string InitScript(const doc::Node& trainjob, const FluxTemplates& templates, const StringMap& settings,
                       std::int32_t nodes) {
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  const std::string ns = doc::StringAtPath(trainjob, {"metadata", "namespace"});
  const std::string hosts = name + "-node-0-[" + Range(nodes, 0) + "]";
  const std::string bind = "tcp://" + settings.at("FLUX_NETWORK_DEVICE") + ":%p";
  const std::string connect = "tcp://%h." + name + "." + ns + ".svc.cluster.local:%p";
  const std::string broker = SprintfS(templates.broker, {bind, connect, hosts, settings.at("FLUX_QUEUE_POLICY")});
  return SprintfS(templates.init, {"/opt/view", name + "-0", hosts, broker});
}

Diagnostic ControllerPanic(const doc::Node& at, std::string field, std::string_view what) {
  return MakeError(at.location(), std::move(field),
                   "nothing is rendered: the Trainer controller's Flux plugin dereferences " + std::string(what) +
                       ", which is unset, so its reconcile panics and creates no objects");
}

// The pointers the plugin dereferences without a nil check.
Status CheckDereferences(const doc::Node& trainjob, const doc::Node& flux) {
  const doc::Node* trainer = TrainerOf(trainjob);
  if (trainer == nullptr) return ControllerPanic(trainjob, "spec.trainer", "spec.trainer");
  if (const doc::Node* n = Present(trainer->Find("numNodes")); n == nullptr || !n->is_int()) {
    return ControllerPanic(*trainer, "spec.trainer.numNodes", "spec.trainer.numNodes");
  }
  const doc::Node* npp = Present(trainer->Find("numProcPerNode"));
  if (npp == nullptr) npp = Present(flux.Find("numProcPerNode"));
  if (npp == nullptr || !npp->is_int()) {
    return ControllerPanic(flux, "spec.mlPolicy.flux.numProcPerNode",
                           "spec.trainer.numProcPerNode or else the runtime's mlPolicy.flux.numProcPerNode");
  }
  return Ok();
}

std::int32_t Int32At(const doc::Node& node, std::string_view key) {
  const doc::Node* v = node.Find(key);
  return v != nullptr && v->is_int() ? static_cast<std::int32_t>(v->int_value()) : 0;
}

}  // namespace

Status EnforceFlux(Info* info, doc::Node* trainjob) {
  const doc::Node* flux = FluxPolicy(*info);
  if (flux == nullptr) return Ok();
  if (Status s = CheckDereferences(*trainjob, *flux); !s.ok()) return s;
  const std::string name = doc::StringAtPath(*trainjob, {"metadata", "name"});
  const std::string config_map = name + "-flux-entrypoint";
  const std::string curve_secret = name + "-flux-curve";
  const StringMap settings = BrokerSettings(*info, *TrainerOf(*trainjob));
  const std::string original = OriginalCommand(*info, *TrainerOf(*trainjob));

  // The TrainJob is rewritten in memory: the builder then sets this command
  // on the trainer container; nil args leave the runtime's args in place.
  doc::Node& trainer = ChildPath(trainjob, {"spec", "trainer"});
  trainer.Set("command", StringList({"/bin/bash", "/etc/flux-config/entrypoint.sh", original}));
  trainer.Erase("args");

  const PodSetContainer installer = Installer(settings.at("FLUX_VIEW_IMAGE"), config_map);
  doc::Node* jobs = info->jobset_spec.FindMutable("replicatedJobs");
  for (std::size_t i = 0; i < info->pod_sets.size(); ++i) {
    PodSet& ps = info->pod_sets[i];
    if (ps.name != kNode) continue;
    UpsertVolumes(&ps.volumes, Volumes(config_map, curve_secret, info->version));
    if (trainer::ReleaseOf(info->version).flux_v23_layout) {
      ps.init_containers.push_back(installer);
    } else if (jobs != nullptr && i < jobs->size()) {
      doc::Node& pod_spec = ChildPath(&jobs->mutable_items()[i], {"template", "spec", "template", "spec"});
      doc::Node* init = pod_spec.FindMutable("initContainers");
      if (init == nullptr || !init->is_sequence()) init = &pod_spec.Set("initContainers", doc::Node::Sequence());
      init->push_back(InstallerContainer(installer));
    }
    for (PodSetContainer& c : ps.containers) {
      if (c.name == kNode) UpsertVolumeMounts(&c.volume_mounts, NodeMounts(config_map, info->version));
    }
  }
  return Ok();
}

Result<doc::Node> BuildFluxConfigMap(const Info& info, const doc::Node& trainjob) {
  const doc::Node* flux = FluxPolicy(info);
  if (flux == nullptr) return doc::Node();
  if (Status s = CheckDereferences(trainjob, *flux); !s.ok()) return s.take_error();
  Result<const FluxTemplates*> templates = LoadFluxTemplates(info.version);
  if (!templates.ok()) return templates.take_error();
  const doc::Node& trainer = *TrainerOf(trainjob);
  const std::int32_t nodes = Int32At(trainer, "numNodes");
  const std::int32_t tasks = Present(trainer.Find("numProcPerNode")) != nullptr ? Int32At(trainer, "numProcPerNode")
                                                                                : Int32At(*flux, "numProcPerNode");
  const StringMap settings = BrokerSettings(info, trainer);
  Result<std::string> entrypoint = Entrypoint(info, trainjob, **templates, nodes, tasks);
  if (!entrypoint.ok()) return entrypoint.take_error();
  const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
  doc::Node config_map = OwnedObject(trainjob, "v1", "ConfigMap", name + "-flux-entrypoint");
  doc::Node data = doc::Node::Mapping();
  data.Set("entrypoint.sh", doc::Node::String(*std::move(entrypoint)));
  data.Set("init.sh", doc::Node::String(InitScript(trainjob, **templates, settings, nodes)));
  config_map.Set("data", std::move(data));
  return config_map;
}

}  // namespace tjr::render
