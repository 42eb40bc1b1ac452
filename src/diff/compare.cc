#include "diff/compare.h"

#include <algorithm>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include "base/ordered_parallel.h"
#include "docdiff/unified_diff.h"
#include "yaml/writer.h"

namespace tjr::diff {
namespace {

// Kubernetes identifies an object by group, kind, namespace and name; the
// version is only how it is spelled. The order is the report's.
struct ObjectKey {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string group;
  friend auto operator<=>(const ObjectKey&, const ObjectKey&) = default;
};

ObjectKey KeyOf(const doc::ObjectId& id) {
  std::size_t slash = id.api_version.find('/');
  std::string group = slash == std::string::npos ? "" : id.api_version.substr(0, slash);
  return {id.kind, id.namespace_, id.name, std::move(group)};
}

struct Rendered {
  doc::ObjectId id;
  std::string train_job;
  const doc::Node* object = nullptr;
};

// Several objects with one key cannot come from the controller (names are
// derived from unique TrainJob names), but they are paired in order rather
// than lost.
using Objects = std::map<ObjectKey, std::vector<Rendered>>;

std::string TrainJobKey(const doc::ObjectId& id) { return id.namespace_ + "/" + id.name; }

bool HasErrors(const pipeline::TrainJobResult& result) { return result.has_errors(); }

void Collect(const RevisionRender& revision, const std::set<std::string>& skip, Objects* objects) {
  for (const pipeline::TrainJobResult& result : revision.train_jobs) {
    std::string train_job = TrainJobKey(result.id);
    if (HasErrors(result) || skip.count(train_job) != 0) continue;
    for (const doc::Node& object : result.objects) {
      doc::ObjectId id = doc::ObjectId::Of(object);
      (*objects)[KeyOf(id)].push_back({std::move(id), train_job, &object});
    }
  }
}

std::string Label(const std::string& revision, const doc::ObjectId& id) {
  std::string label = revision + "/" + id.kind + "/";
  if (!id.namespace_.empty()) label += id.namespace_ + "/";
  return label + id.name;
}

void AddFindings(const RevisionRender& revision, Side side, std::vector<RevisionFinding>* out) {
  // BASE's warnings are about the past; its errors explain what HEAD adds.
  auto keep = [&](const Diagnostic& d) {
    return side == Side::kBase ? d.severity == Severity::kError : d.severity != Severity::kNote;
  };
  for (const Diagnostic& d : revision.diagnostics) {
    if (keep(d)) out->push_back({side, "", d});
  }
  for (const pipeline::TrainJobResult& result : revision.train_jobs) {
    for (const Diagnostic& d : result.diagnostics) {
      if (keep(d)) out->push_back({side, TrainJobKey(result.id), d});
    }
  }
}

}  // namespace

std::string DisplayName(const doc::ObjectId& id) {
  return id.kind + " " + (id.namespace_.empty() ? "" : id.namespace_ + "/") + id.name;
}

const char* SideName(Side side) { return side == Side::kBase ? "base" : "head"; }

const char* ChangeName(ChangeType type) {
  switch (type) {
    case ChangeType::kAdded: return "added";
    case ChangeType::kRemoved: return "removed";
    case ChangeType::kChanged: return "changed";
  }
  return "changed";
}

std::size_t DiffResult::Count(ChangeType type) const {
  return static_cast<std::size_t>(std::count_if(
      changes.begin(), changes.end(), [&](const ObjectChange& c) { return c.type == type; }));
}

std::vector<std::string> DiffResult::Refused(Side side) const {
  std::set<std::string> refused;
  for (const RevisionFinding& f : findings) {
    if (f.side == side && !f.train_job.empty() && f.diagnostic.severity == Severity::kError) {
      refused.insert(f.train_job);
    }
  }
  return {refused.begin(), refused.end()};
}

std::size_t DiffResult::ErrorCount(Side side) const {
  return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(), [&](const RevisionFinding& f) {
    return f.side == side && f.diagnostic.severity == Severity::kError;
  }));
}

std::string DiffResult::CountsText() const {
  return std::to_string(Count(ChangeType::kAdded)) + " added, " + std::to_string(Count(ChangeType::kRemoved)) +
         " removed, " + std::to_string(Count(ChangeType::kChanged)) + " changed, " + std::to_string(unchanged) +
         " unchanged (" + TrainJobsCompared() + ")";
}

std::string DiffResult::TrainJobsCompared() const {
  return std::to_string(train_jobs) + (train_jobs == 1 ? " TrainJob" : " TrainJobs") + " compared";
}

bool DiffResult::HasDifferences() const { return !changes.empty(); }

bool DiffResult::NothingCompared() const {
  return changes.empty() && ErrorCount(Side::kHead) > 0 && Refused(Side::kHead).size() >= train_jobs;
}

DiffResult Compare(const RevisionRender& base, const RevisionRender& head,
                   const CompareOptions& options) {
  DiffResult result;
  AddFindings(base, Side::kBase, &result.findings);
  AddFindings(head, Side::kHead, &result.findings);

  std::set<std::string> compared;
  for (const RevisionRender* side : {&base, &head}) {
    for (const pipeline::TrainJobResult& r : side->train_jobs) compared.insert(TrainJobKey(r.id));
  }
  result.train_jobs = compared.size();

  std::set<std::string> refused_at_head;
  for (const pipeline::TrainJobResult& r : head.train_jobs) {
    if (HasErrors(r)) refused_at_head.insert(TrainJobKey(r.id));
  }
  Objects before;
  Objects after;
  Collect(base, refused_at_head, &before);
  Collect(head, {}, &after);

  // Pair the objects first (both maps are sorted by key: one merge pass
  // visits every key once), then write and diff the pairs on all threads.
  struct Pair {
    const Rendered* was = nullptr;
    const Rendered* now = nullptr;
  };
  std::vector<Pair> pairs;
  auto old_at = before.begin();
  auto new_at = after.begin();
  while (old_at != before.end() || new_at != after.end()) {
    const bool take_old = new_at == after.end() || (old_at != before.end() && old_at->first <= new_at->first);
    const bool take_new = old_at == before.end() || (new_at != after.end() && new_at->first <= old_at->first);
    static const std::vector<Rendered> kNone;
    const std::vector<Rendered>& olds = take_old ? old_at->second : kNone;
    const std::vector<Rendered>& news = take_new ? new_at->second : kNone;
    for (std::size_t i = 0; i < std::max(olds.size(), news.size()); ++i) {
      pairs.push_back({i < olds.size() ? &olds[i] : nullptr, i < news.size() ? &news[i] : nullptr});
    }
    if (take_old) ++old_at;
    if (take_new) ++new_at;
  }

  struct Outcome {
    bool unchanged = true;
    ChangeType type = ChangeType::kChanged;
    std::string diff;
  };
  auto compare = [&](std::size_t index) {
    const Pair& pair = pairs[index];
    if (pair.now == nullptr) {
      return Outcome{false, ChangeType::kRemoved, docdiff::UnifiedDiff(yaml::Write(*pair.was->object), "",
                                                       Label(options.base_label, pair.was->id), "/dev/null",
                                                       options.context)};
    }
    if (pair.was == nullptr) {
      return Outcome{false, ChangeType::kAdded, docdiff::UnifiedDiff("", yaml::Write(*pair.now->object), "/dev/null",
                                                     Label(options.head_label, pair.now->id), options.context)};
    }
    if (*pair.was->object == *pair.now->object) return Outcome{};
    std::string diff = docdiff::UnifiedDiff(yaml::Write(*pair.was->object), yaml::Write(*pair.now->object),
                                   Label(options.base_label, pair.was->id), Label(options.head_label, pair.now->id),
                                   options.context);
    return Outcome{diff.empty(), ChangeType::kChanged, std::move(diff)};
  };
  std::size_t next = 0;
  const unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  OrderedParallelFor(pairs.size(), threads, 64, compare, [&](Outcome&& outcome) {
    const Pair& pair = pairs[next++];
    if (outcome.unchanged) {
      ++result.unchanged;
      return;
    }
    const Rendered& shown = pair.now != nullptr ? *pair.now : *pair.was;
    result.changes.push_back({outcome.type, shown.id, shown.train_job, std::move(outcome.diff)});
  });
  return result;
}

}  // namespace tjr::diff
