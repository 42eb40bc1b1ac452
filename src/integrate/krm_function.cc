#include "integrate/krm_function.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "app/integration_render.h"
#include "app/target_name.h"
#include "base/file.h"
#include "integrate/krm.h"
#include "integrate/resource_list_edit.h"
#include "pipeline/pipeline.h"
#include "report/ignore.h"
#include "source/confined_tree.h"
#include "source/disk_tree.h"
#include "source/loader.h"

namespace tjr::integrate {
namespace {

Diagnostic UsageError(std::string message) {
  return AsInputError(MakeError(Location{}, "", std::move(message)));
}

constexpr char kKrmNamespaceWho[] =
    "kustomize and kpt do not tell a KRM function the namespace they apply objects in: write the TrainJob's "
    "metadata.namespace";

// A rendered object's origin: beside the TrainJob's file, one index each.
void Annotate(const std::string& trainjob_path, std::size_t index, doc::Node* object) {
  if (trainjob_path.empty() || !object->is_mapping()) return;
  std::string dir;
  std::size_t slash = trainjob_path.rfind('/');
  if (slash != std::string::npos) dir = trainjob_path.substr(0, slash + 1);
  std::string name;
  if (const doc::Node* metadata = object->Find("metadata")) {
    if (const doc::Node* n = metadata->Find("name"); n != nullptr && n->is_string()) name = n->string_value();
  }
  doc::Node* metadata = object->FindMutable("metadata");
  if (metadata == nullptr) metadata = &object->Set("metadata", doc::Node::Mapping());
  doc::Node* annotations = metadata->FindMutable("annotations");
  if (annotations == nullptr || !annotations->is_mapping()) {
    annotations = &metadata->Set("annotations", doc::Node::Mapping());
  }
  std::string path = dir + "rendered_" + name + ".yaml";
  annotations->Set("config.kubernetes.io/path", doc::Node::String(path));
  annotations->Set("internal.config.kubernetes.io/path", doc::Node::String(path));
  annotations->Set("config.kubernetes.io/index", doc::Node::String(std::to_string(index)));
  annotations->Set("internal.config.kubernetes.io/index", doc::Node::String(std::to_string(index)));
}

// A message as the user's files name things: another object's location
// (a duplicate's other copy) as FILE:LINE:COL of its item, not a line of the
// ResourceList, and no stand-in namespace (the objects have none written).
std::string InUsersTerms(const ResourceList& list, std::string message) {
  const std::string list_name = list.source_name + ":";
  for (std::size_t at = message.find(list_name); at != std::string::npos; at = message.find(list_name, at)) {
    std::size_t end = at + list_name.size();
    auto number = [&](std::uint32_t* out) {
      std::size_t start = end;
      while (end < message.size() && message[end] >= '0' && message[end] <= '9' && end - start < 9) ++end;
      if (end == start) return false;
      *out = static_cast<std::uint32_t>(std::stoul(message.substr(start, end - start)));
      return true;
    };
    Location where{InternSourceName(list.source_name)};
    if (!number(&where.line)) {
      at = end;
      continue;
    }
    if (end < message.size() && message[end] == ':') {
      std::size_t colon = end++;
      if (!number(&where.column)) end = colon;
    }
    std::string named = FileLocation(list.origins, list.source_name, where).ToString();
    message.replace(at, end - at, named);
    at += named.size();
  }
  for (const std::string& untold : {std::string(app::kUntoldNamespace) + "/", std::string(app::kUntoldNamespace)}) {
    for (std::size_t at = message.find(untold); at != std::string::npos; at = message.find(untold, at)) {
      const std::string instead = untold.back() == '/' ? "" : "(no namespace written)";
      message.replace(at, untold.size(), instead);
      at += instead.size();
    }
  }
  return message;
}

// A path annotation that stays inside the package.
bool InsidePackage(const std::string& path) {
  return !path.empty() && path.front() != '/' && path != ".." && path.rfind("../", 0) != 0 &&
         path.find("/../") == std::string::npos;
}

// Where the items' paths start, with a trailing '/' ("" for the working
// directory), or "" when unknown. kpt runs an exec function in its own
// working directory and tells it nothing of the package (kpt
// pkg/fn/runtime/exec.go ExecFn.Run: no Dir, no package in the
// environment), so the package is the working directory (`kpt fn eval .`)
// or a folder kpt's own command line names (`kpt fn eval manifests/`): the
// first of those that holds every item's file.
std::string PackageFolder(const ResourceList& list) {
  std::vector<std::string> paths;
  for (const ItemOrigin& origin : list.origins) {
    if (InsidePackage(origin.path)) paths.push_back(origin.path);
  }
  if (paths.empty()) return "";
  namespace fs = std::filesystem;
  auto holds_all = [&](const fs::path& folder) {
    std::error_code error;
    return std::all_of(paths.begin(), paths.end(),
                       [&](const std::string& path) { return fs::is_regular_file(folder / path, error); });
  };
  if (holds_all(".")) return "";
  const std::string parent = "/proc/" + std::to_string(::getppid());
  Result<std::string> command_line = ReadFile(parent + "/cmdline", std::size_t{1} << 20);
  std::error_code error;
  const fs::path parent_cwd = fs::read_symlink(parent + "/cwd", error);
  if (!command_line.ok() || error) return "";
  std::size_t start = 0;
  for (std::size_t end = command_line->find('\0'); end != std::string::npos;
       start = end + 1, end = command_line->find('\0', start)) {
    const std::string argument = command_line->substr(start, end - start);
    if (argument.empty() || argument.front() == '-') continue;
    const fs::path folder = fs::path(argument).is_absolute() ? fs::path(argument) : parent_cwd / argument;
    if (fs::is_directory(folder, error) && holds_all(folder)) return (folder / "").string();
  }
  return "";
}

// A relative runtime path names a folder beside the package's own files, as
// the Kptfile that carries it does: it is taken from the package folder, not
// from wherever kpt was started (`kpt fn render pkg` runs the function in
// pkg's parent, `cd pkg && kpt fn render .` in pkg). Without a package folder
// (items without paths, as kustomize sends them) it is the working directory's.
// Said relative to the working directory, so messages name what the user
// would type.
std::string FromPackage(const std::string& package, const std::string& path) {
  namespace fs = std::filesystem;
  if (package.empty() || path.empty() || fs::path(path).is_absolute()) return path;
  const fs::path joined = (fs::path(package) / path).lexically_normal();
  std::error_code error;
  const fs::path here = fs::current_path(error);
  if (error) return joined.string();
  const fs::path relative = joined.lexically_relative(here);
  if (relative.empty()) return joined.string();
  std::string out = relative.string();
  // "pkg/platform/" from "pkg/platform/." or a trailing separator.
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

}  // namespace

KrmOutcome RunKrmFunction(const KrmRequest& request, app::Findings& findings) {
  KrmOutcome outcome;
  Result<ResourceList> list = ReadResourceList(request.resource_list, "<stdin>");
  if (!list.ok()) {
    outcome.refused = list.take_error();
    return outcome;
  }
  // The package's files give the lines the items cannot (a separated head
  // comment, a --match-* selection).
  const std::string package = PackageFolder(*list);
  // An item's file is read only inside the package, links included: a link
  // out of it means kpt read the item from elsewhere on this machine (in
  // render mode a runtime's fields would reach the output), so it is refused.
  const source::DiskTree disk;
  const source::ConfinedTree package_tree(disk, package.empty() ? "." : package, "the package folder");
  for (const ItemOrigin& origin : list->origins) {
    if (!InsidePackage(origin.path)) continue;
    if (Status inside = package_tree.Check(origin.path); !inside.ok()) {
      outcome.refused = inside.take_error();
      outcome.refused->message = "the path annotation of an item " + outcome.refused->message;
      return outcome;
    }
  }
  PlaceFromFiles(&list->origins, list->items, [&package_tree](const std::string& path) -> std::optional<std::string> {
    if (!InsidePackage(path)) return std::nullopt;
    Result<std::string> text = package_tree.Read(path, std::size_t{64} << 20);
    if (!text.ok()) return std::nullopt;
    return std::move(*text);
  });
  std::string mode = request.mode;
  if (mode.empty()) mode = FunctionConfigValue(*list, "mode");
  if (mode.empty()) mode = "validate";
  if (mode != "validate" && mode != "render") {
    outcome.refused = UsageError("mode must be validate or render, not '" + mode + "'");
    return outcome;
  }
  const bool render = mode == "render";
  // The working directory's, never a file a link there leads to elsewhere.
  Result<app::RepoConfig> config =
      app::ReadRepoConfig(source::ConfinedTree(disk, ".", "the working directory"), request.config_path);
  if (!config.ok()) {
    outcome.refused = config.take_error();
    return outcome;
  }
  Result<std::string> target =
      app::ChooseTarget(!request.target.empty() ? request.target : FunctionConfigValue(*list, "target"), *config);
  if (!target.ok()) {
    outcome.refused = target.take_error();
    return outcome;
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.target = std::move(*target);

  // kustomize and kpt apply namespace-less objects in a namespace they do
  // not tell a function (a kustomization's `namespace:`, kpt's inventory or
  // the kubectl context): render those in the stand-in and write the
  // objects without one, as the TrainJob was written.
  pipeline_options.default_namespace = app::kUntoldNamespace;
  source::LoadOptions load_options;
  load_options.default_namespace = app::kUntoldNamespace;

  // One file per item, named by its origin, so loader messages name it.
  std::vector<source::ParsedFile> files;
  for (std::size_t i = 0; i < list->items.size(); ++i) {
    files.push_back({list->origins[i].name, {list->items[i]}});
  }
  source::ManifestSet manifests = source::AdmitDocuments(files, load_options);
  std::vector<std::string> runtime_paths = request.runtime_paths;
  if (runtime_paths.empty()) runtime_paths = report::SplitRuleList(FunctionConfigValue(*list, "runtime-paths"));
  for (std::string& path : runtime_paths) path = FromPackage(package, path);
  if (!runtime_paths.empty()) {
    // Runtimes kept outside the package (a platform's ClusterTrainingRuntimes):
    // they resolve runtimeRefs; a copy among the items wins.
    std::set<doc::ObjectId> items;
    for (const source::Manifest& m : manifests.manifests) items.insert(m.id);
    source::ManifestSet outside = source::LoadManifests(runtime_paths, load_options);
    for (Diagnostic& d : outside.diagnostics) manifests.diagnostics.push_back(std::move(d));
    for (source::Manifest& m : outside.manifests) {
      if (app::IsRuntime(m.object) && !items.count(m.id)) manifests.manifests.push_back(std::move(m));
    }
  }
  // Findings name the user's files and lines, not lines of stdin.
  findings.SetLocationMap([&list](const Location& at) { return FileLocation(list->origins, list->source_name, at); });
  findings.SetMessageMap([&list](const std::string& message) { return InUsersTerms(*list, message); });
  std::map<std::string, std::vector<doc::Node>> rendered =
      app::ValidateAndRender(manifests, *config, pipeline_options, &findings, render);

  std::vector<ItemEdit> edits;
  if (render) {
    edits.resize(list->items.size());
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      const doc::Node& item = list->items[i];
      if (app::IsRuntime(item)) edits[i].keep = false;
      if (!app::IsTrainJob(item)) continue;
      edits[i].keep = false;
      auto it = rendered.find(app::TrainJobKey(item, pipeline_options.default_namespace));
      if (it == rendered.end()) continue;
      if (!app::HasNamespace(item)) {
        if (std::optional<Diagnostic> d = app::LeaveNamespaceUnset(item, kKrmNamespaceWho, &it->second)) {
          findings.Add(*d, app::RefOf(doc::ObjectId::Of(item)));
          continue;
        }
      }
      std::size_t index = 0;
      for (doc::Node made : it->second) {
        Annotate(ItemPath(item), index++, &made);
        edits[i].added.push_back(std::move(made));
      }
    }
  }
  findings.SetLocationMap(nullptr);
  findings.SetMessageMap(nullptr);
  // The objects the results are about, as written: without the stand-in.
  std::vector<report::Finding> about = findings.findings();
  for (report::Finding& finding : about) {
    if (finding.object.namespace_ == app::kUntoldNamespace) finding.object.namespace_.clear();
  }
  outcome.resource_list = EditResourceList(*list, edits, Results(*list, about));
  return outcome;
}

}  // namespace tjr::integrate
