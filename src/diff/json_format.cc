#include "diff/json_format.h"

#include <cstdint>

#include "json/json.h"

namespace tjr::diff {
namespace {

doc::Node Int(std::size_t value) { return doc::Node::Int(static_cast<std::int64_t>(value)); }

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

doc::Node ObjectEntry(const ObjectChange& change) {
  doc::Node entry = doc::Node::Mapping();
  entry.Set("change", doc::Node::String(ChangeName(change.type)));
  entry.Set("apiVersion", doc::Node::String(change.id.api_version));
  entry.Set("kind", doc::Node::String(change.id.kind));
  entry.Set("namespace", doc::Node::String(change.id.namespace_));
  entry.Set("name", doc::Node::String(change.id.name));
  entry.Set("trainJob", doc::Node::String(change.train_job));
  entry.Set("diff", doc::Node::String(change.diff));
  return entry;
}

doc::Node FindingEntry(const RevisionFinding& finding) {
  const Diagnostic& d = finding.diagnostic;
  doc::Node entry = doc::Node::Mapping();
  entry.Set("side", doc::Node::String(SideName(finding.side)));
  entry.Set("trainJob", doc::Node::String(finding.train_job));
  entry.Set("severity", doc::Node::String(SeverityName(d.severity)));
  entry.Set("file", doc::Node::String(d.location.file != nullptr ? *d.location.file : ""));
  entry.Set("line", Int(d.location.line));
  entry.Set("column", Int(d.location.column));
  entry.Set("fieldPath", doc::Node::String(d.field_path));
  entry.Set("message", doc::Node::String(d.message));
  entry.Set("text", doc::Node::String(d.ToString()));
  return entry;
}

}  // namespace

std::string FormatJson(const DiffResult& result, const JsonOptions& options) {
  doc::Node summary = doc::Node::Mapping();
  summary.Set("added", Int(result.Count(ChangeType::kAdded)));
  summary.Set("removed", Int(result.Count(ChangeType::kRemoved)));
  summary.Set("changed", Int(result.Count(ChangeType::kChanged)));
  summary.Set("unchanged", Int(result.unchanged));
  summary.Set("trainJobs", Int(result.train_jobs));
  summary.Set("errorsAtBase", Int(result.ErrorCount(Side::kBase)));
  summary.Set("errorsAtHead", Int(result.ErrorCount(Side::kHead)));
  doc::Node refused = doc::Node::Mapping();
  for (Side side : {Side::kBase, Side::kHead}) {
    doc::Node names = doc::Node::Sequence();
    for (const std::string& name : result.Refused(side)) names.push_back(doc::Node::String(name));
    refused.Set(SideName(side), std::move(names));
  }

  doc::Node objects = doc::Node::Sequence();
  for (const ObjectChange& change : result.changes) objects.push_back(ObjectEntry(change));
  doc::Node findings = doc::Node::Sequence();
  for (const RevisionFinding& finding : result.findings) findings.push_back(FindingEntry(finding));

  doc::Node root = doc::Node::Mapping();
  root.Set("schemaVersion", Int(1));
  root.Set("base", doc::Node::String(options.base_label));
  root.Set("head", doc::Node::String(options.head_label));
  root.Set("differences", doc::Node::Bool(result.HasDifferences()));
  root.Set("nothingCompared", doc::Node::Bool(result.NothingCompared()));
  root.Set("summary", std::move(summary));
  root.Set("refused", std::move(refused));
  root.Set("objects", std::move(objects));
  root.Set("findings", std::move(findings));
  return json::Write(root, true);
}

}  // namespace tjr::diff
