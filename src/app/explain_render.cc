#include "app/explain_render.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <memory>
#include <mutex>
#include <system_error>

#include "explain/flyte_explain.h"
#include "explain/trainer_explain.h"

namespace tjr::app {
namespace {

namespace fs = std::filesystem;

// Whether two names of files (as given, and as the loader names them) are
// the same file.
bool SameFile(const std::string& a, const std::string& b) {
  if (fs::path(a).lexically_normal() == fs::path(b).lexically_normal()) return true;
  std::error_code error;
  return fs::equivalent(a, b, error) && !error;
}

bool Under(const std::string& file, const std::string& folder) {
  std::error_code error;
  const fs::path f = fs::weakly_canonical(file, error);
  if (error) return false;
  const fs::path d = fs::weakly_canonical(folder, error);
  if (error) return false;
  if (f == d) return true;
  auto mismatch = std::mismatch(d.begin(), d.end(), f.begin(), f.end());
  return mismatch.first == d.end();
}

// What the subject names: a file, or a namespace and a name.
struct Subject {
  std::string file;
  std::string namespace_;
  std::string name;

  bool Matches(const std::string& object_file, const std::string& object_namespace,
               const std::string& object_name) const {
    if (!file.empty()) return SameFile(object_file, file);
    return object_name == name && (namespace_.empty() || object_namespace == namespace_);
  }
};

Subject ReadSubject(const ExplainRequest& request) {
  Subject subject;
  std::error_code error;
  if (request.render.source.rev.empty() && fs::is_regular_file(request.subject, error)) {
    subject.file = request.subject;
    return subject;
  }
  if (const std::size_t slash = request.subject.find('/'); slash != std::string::npos) {
    subject.namespace_ = request.subject.substr(0, slash);
    subject.name = request.subject.substr(slash + 1);
  } else {
    subject.name = request.subject;
  }
  return subject;
}

// Passes everything on, and explains the subject's results as they arrive.
class ExplainSink final : public RenderSink {
 public:
  ExplainSink(RenderSink& inner, const Subject& subject, ExplainOutcome* outcome)
      : inner_(inner), subject_(subject), outcome_(outcome) {}

  void Data(std::string_view bytes) override { inner_.Data(bytes); }
  void Problem(const Diagnostic& problem) override { inner_.Problem(problem); }
  void Note(std::string_view text) override { inner_.Note(text); }
  void Notice(std::string_view text) override { inner_.Notice(text); }
  void ProgressStart(std::size_t total) override { inner_.ProgressStart(total); }
  void ProgressPause() override { inner_.ProgressPause(); }
  void ProgressTick() override { inner_.ProgressTick(); }

  void Rendered(const pipeline::TrainJobResult& result) override {
    inner_.Rendered(result);
    if (result.inputs == nullptr) {
      if (result.id.kind == "TrainJob" && subject_.Matches(result.file, result.id.namespace_, result.id.name)) {
        refused_.push_back("TrainJob " + result.id.namespace_ + "/" + result.id.name);
      }
      return;
    }
    matched_.push_back("TrainJob " + result.id.namespace_ + "/" + result.id.name);
    outcome_->subject_has_errors = outcome_->subject_has_errors || result.has_errors();
    Result<explain::Explanation> explained =
        explain::ExplainTrainJob(*result.inputs, result.objects, result.inputs->target);
    if (!explained.ok()) {
      inner_.Problem(explained.error());
      return;
    }
    outcome_->explanations.push_back(*std::move(explained));
  }

  void Rendered(const flyte::TaskResult& task) override {
    inner_.Rendered(task);
    if (task.trace == nullptr || !subject_.Matches(task.file, task.namespace_, task.name)) return;
    matched_.push_back("task " + task.namespace_ + "/" + task.name);
    outcome_->subject_has_errors = outcome_->subject_has_errors || task.has_errors();
    outcome_->explanations.push_back(explain::ExplainFlyteTask(*task.trace));
  }

  const std::vector<std::string>& matched() const { return matched_; }
  /// Subjects that stopped before the controller would render them.
  const std::vector<std::string>& refused() const { return refused_; }

 private:
  RenderSink& inner_;
  const Subject& subject_;
  ExplainOutcome* outcome_;
  std::vector<std::string> matched_;
  std::vector<std::string> refused_;
};

// The page shows the input files its locations name: those of the working
// tree are read back (a Git revision's are not: the page says so), up to a
// budget, so a repository of huge files does not make a huge page.
void AttachFiles(explain::Explanation* explanation) {
  constexpr std::uintmax_t kMaxFileBytes = 2u << 20;
  constexpr std::size_t kMaxFiles = 64;
  std::set<std::string> names;
  auto note = [&](const Location& at) {
    if (at.known() && names.size() < kMaxFiles) names.insert(*at.file);
  };
  for (const explain::Layer& layer : explanation->layers) note(layer.location);
  for (const explain::ObjectExplanation& object : explanation->objects) {
    for (const explain::Field& field : object.fields) {
      for (const explain::Step& step : field.chain) note(step.location);
    }
  }
  for (const std::string& name : names) {
    std::error_code error;
    if (!fs::is_regular_file(name, error) || fs::file_size(name, error) > kMaxFileBytes || error) continue;
    std::ifstream in(name, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) continue;
    explanation->files.push_back({name, std::move(text)});
  }
}

}  // namespace

ExplainOutcome ExplainRendered(ExplainRequest request, Findings& findings, RenderSink& sink) {
  ExplainOutcome outcome;
  const Subject subject = ReadSubject(request);
  std::vector<std::string>& paths = request.render.source.paths;
  if (!subject.file.empty()) {
    if (paths.empty() && request.render.source.rev.empty()) paths.push_back(".");
    bool held = false;
    for (const std::string& path : paths) held = held || Under(subject.file, path);
    if (!held) paths.push_back(subject.file);
  } else if (paths.empty() && request.render.source.rev.empty()) {
    paths.push_back(".");
  }
  request.render.objects = ObjectsTo::kNowhere;
  request.render.keep_inputs = [&subject](const source::Manifest& manifest) {
    return manifest.id.kind == "TrainJob" && subject.Matches(manifest.file, manifest.id.namespace_, manifest.id.name);
  };
  request.render.keep_flyte_traces = true;
  ExplainSink explain_sink(sink, subject, &outcome);
  RenderOutcome rendered = RenderRepository(request.render, findings, explain_sink);
  outcome.end = rendered.end;
  outcome.input_error = rendered.input_error;
  if (rendered.end != RenderEnd::kRendered) return outcome;
  const std::vector<std::string>& matched = explain_sink.matched();
  if (matched.empty() && !explain_sink.refused().empty()) {
    sink.Problem(AsInputError(MakeError({}, "", explain_sink.refused().front() +
                                                    " is refused before the controller renders it (the errors above), "
                                                    "so there is nothing to explain")));
    outcome.input_error = true;
  } else if (matched.empty()) {
    sink.Problem(AsInputError(MakeError({}, "", "no TrainJob or Flyte task " + request.subject + " among the inputs" +
                                                    (subject.file.empty() ? " (name it as namespace/name, or give "
                                                                            "its file)"
                                                                          : ""))));
    outcome.input_error = true;
    outcome.explanations.clear();
  } else if (matched.size() > 1) {
    std::string list;
    for (const std::string& one : matched) list += (list.empty() ? "" : ", ") + one;
    sink.Problem(AsInputError(MakeError({}, "", request.subject + " names " + std::to_string(matched.size()) +
                                                    " objects (" + list + "): name one as namespace/name")));
    outcome.input_error = true;
    outcome.explanations.clear();
  }
  if (request.render.source.rev.empty() && request.render.source.tree == nullptr) {
    for (explain::Explanation& explanation : outcome.explanations) AttachFiles(&explanation);
  }
  return outcome;
}

}  // namespace tjr::app
