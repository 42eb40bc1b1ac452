#include "migrate/compare.h"

#include <algorithm>
#include <map>
#include <utility>

#include "docdiff/field_diff.h"
#include "doc/objects.h"
#include "pipeline/for_apply.h"
#include "pipeline/pipeline.h"

namespace tjr::migrate {
namespace {

struct Rendered {
  pipeline::TrainJobResult result;
  bool errors = false;
  Location location;  // of the TrainJob
};

// One side's TrainJobs in the pipeline's order, and where to find each.
struct Side {
  std::vector<Rendered> trainjobs;
  std::map<std::string, std::size_t> index;
};

std::string Key(const doc::ObjectId& id) { return id.namespace_ + "/" + id.name; }

std::string DisplayName(const doc::ObjectId& id) {
  return id.kind + " " + (id.namespace_.empty() ? id.name : id.namespace_ + "/" + id.name);
}

// Renders one manifest set; errors (the loader's, the pipeline's, each
// TrainJob's) go to `errors` with the target in front.
Side Render(const std::vector<source::ParsedFile>& files,
                                       const std::string& target, const CompareOptions& options,
                                       const std::set<std::string>& skip, Diagnostics* errors) {
  source::LoadOptions load;
  load.default_namespace = options.default_namespace;
  load.enforce_namespace = options.enforce_namespace;
  source::ManifestSet manifests = source::AdmitDocuments(files, load);
  auto keep_error = [&](Diagnostic diagnostic) {
    if (diagnostic.severity != Severity::kError) return;
    // The target first: "trainer-v2.1: spec.x: message".
    std::string path = std::move(diagnostic.field_path);
    diagnostic.field_path.clear();
    const bool repeated = !path.empty() && diagnostic.message.starts_with(path + ": ");
    diagnostic.message =
        target + ": " + (path.empty() || repeated ? "" : path + ": ") + diagnostic.message;
    errors->push_back(std::move(diagnostic));
  };
  // Loading does not depend on the target: its errors are reported once,
  // as they are (the migration only adds runtimePatches).
  for (const Diagnostic& diagnostic : manifests.diagnostics) {
    if (diagnostic.severity != Severity::kError) continue;
    const bool seen = std::any_of(errors->begin(), errors->end(), [&](const Diagnostic& known) {
      return known.ToString() == diagnostic.ToString();
    });
    if (!seen) errors->push_back(diagnostic);
  }
  pipeline::PipelineOptions pipeline_options;
  pipeline_options.target = target;
  pipeline_options.default_namespace = options.default_namespace;
  pipeline_options.threads = options.threads;
  // What each release's controller creates is compared; whether the
  // cluster then admits it is the same question before and after the
  // rewrite, and `check` answers it.
  pipeline_options.admission = false;
  std::map<std::string, Location> locations;
  for (const source::Manifest& manifest : manifests.manifests) {
    if (manifest.id.kind == "TrainJob") locations[Key(manifest.id)] = manifest.location();
  }
  Side side;
  pipeline::PipelineSummary summary =
      pipeline::RenderManifests(manifests, pipeline_options, [&](pipeline::TrainJobResult&& result) {
        const std::string key = Key(result.id);
        if (skip.count(key) != 0) return;
        const bool has_errors = result.has_errors();
        for (const Diagnostic& diagnostic : result.diagnostics) keep_error(diagnostic);
        // The v2.3 controller's runtime snapshot is the runtime, which the
        // migration does not touch; v2.1 has none to compare it with.
        pipeline::RemoveRuntimeSnapshot(&result);
        side.index[key] = side.trainjobs.size();
        side.trainjobs.push_back(Rendered{std::move(result), has_errors, locations[key]});
      });
  for (const Diagnostic& diagnostic : summary.diagnostics) keep_error(diagnostic);
  return side;
}

std::vector<std::string> CompareObjects(const std::vector<doc::Node>& before,
                                        const std::vector<doc::Node>& after) {
  std::vector<std::string> lines;
  std::vector<bool> matched(before.size(), false);
  for (const doc::Node& object : after) {
    const doc::ObjectId id = doc::ObjectId::Of(object);
    std::size_t found = before.size();
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (!matched[i] && doc::ObjectId::Of(before[i]) == id) {
        found = i;
        break;
      }
    }
    if (found == before.size()) {
      lines.push_back(DisplayName(id) + ": + (object): " + id.ToString() + " is new");
      continue;
    }
    matched[found] = true;
    for (const docdiff::FieldDifference& difference : docdiff::DiffFields(before[found], object)) {
      lines.push_back(DisplayName(id) + ": " + docdiff::FormatFieldDifference(difference));
    }
  }
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (matched[i]) continue;
    const doc::ObjectId id = doc::ObjectId::Of(before[i]);
    lines.push_back(DisplayName(id) + ": - (object): " + id.ToString() + " is no longer created");
  }
  return lines;
}

}  // namespace

std::size_t Comparison::Count() const {
  std::size_t count = errors.size();
  for (const TrainJobComparison& trainjob : trainjobs) count += trainjob.differences.size();
  return count;
}

Comparison CompareRenders(const std::vector<source::ParsedFile>& before,
                          const std::vector<source::ParsedFile>& after,
                          const std::set<std::string>& skip, const CompareOptions& options) {
  Comparison comparison;
  Diagnostics new_errors;
  const Side old_side = Render(before, options.before_target, options, skip, &comparison.errors);
  const Side new_side = Render(after, options.after_target, options, skip, &new_errors);
  // An error both releases report alike (a runtime that is nowhere, say) is
  // one error: "trainer-v2.1 and trainer-v2.3: ...".
  const std::string old_prefix = options.before_target + ": ";
  const std::string new_prefix = options.after_target + ": ";
  for (Diagnostic& error : new_errors) {
    auto same = std::find_if(comparison.errors.begin(), comparison.errors.end(), [&](const Diagnostic& known) {
      return known.location.ToString() == error.location.ToString() && known.message.starts_with(old_prefix) &&
             error.message.starts_with(new_prefix) &&
             std::string_view(known.message).substr(old_prefix.size()) ==
                 std::string_view(error.message).substr(new_prefix.size());
    });
    if (same != comparison.errors.end()) {
      same->message = options.before_target + " and " + new_prefix + same->message.substr(old_prefix.size());
    } else if (std::none_of(comparison.errors.begin(), comparison.errors.end(),
                            [&](const Diagnostic& known) { return known.ToString() == error.ToString(); })) {
      comparison.errors.push_back(std::move(error));
    }
  }
  for (const Rendered& rendered : new_side.trainjobs) {
    const std::string key = Key(rendered.result.id);
    auto old = old_side.index.find(key);
    if (old == old_side.index.end()) continue;
    const Rendered& was = old_side.trainjobs[old->second];
    if (was.errors || rendered.errors) continue;
    TrainJobComparison trainjob;
    trainjob.train_job = key;
    trainjob.location = was.location;
    trainjob.differences = CompareObjects(was.result.objects, rendered.result.objects);
    if (!trainjob.differences.empty()) comparison.trainjobs.push_back(std::move(trainjob));
  }
  return comparison;
}

}  // namespace tjr::migrate
