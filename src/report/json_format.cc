// The `json` report: one document, {"findings": [...], "summary": {...}},
// written by the RapidJSON adapter (keys sorted, as encoding/json does).
#include "doc/node.h"
#include "json/json.h"
#include "report/format.h"

namespace tjr::report {
namespace {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

doc::Node Int(std::size_t value) { return doc::Node::Int(static_cast<std::int64_t>(value)); }

doc::Node ObjectNode(const ObjectRef& object) {
  doc::Node node = doc::Node::Mapping();
  node.Set("apiVersion", doc::Node::String(object.api_version));
  node.Set("kind", doc::Node::String(object.kind));
  if (!object.namespace_.empty()) node.Set("namespace", doc::Node::String(object.namespace_));
  node.Set("name", doc::Node::String(object.name));
  return node;
}

doc::Node FindingNode(const Finding& f) {
  const Diagnostic& d = f.diagnostic;
  doc::Node node = doc::Node::Mapping();
  node.Set("rule", doc::Node::String(f.rule));
  node.Set("severity", doc::Node::String(SeverityName(d.severity)));
  node.Set("file", d.location.known() ? doc::Node::String(*d.location.file) : doc::Node::Null());
  node.Set("line", Int(d.location.line));
  node.Set("column", Int(d.location.column));
  node.Set("fieldPath", doc::Node::String(d.field_path));
  node.Set("message", doc::Node::String(MessageWithoutRule(d)));
  node.Set("object", f.object.known() ? ObjectNode(f.object) : doc::Node::Null());
  return node;
}

}  // namespace

std::string WriteJson(const Results& run) {
  doc::Node findings = doc::Node::Sequence();
  for (const Finding& f : run.findings) findings.push_back(FindingNode(f));
  Counts counts = Count(run.findings);
  doc::Node summary = doc::Node::Mapping();
  summary.Set("objectsRendered", Int(run.objects_rendered));
  summary.Set("objectsChecked", Int(run.objects_checked));
  summary.Set("filesSkipped", Int(run.files_skipped));
  summary.Set("errors", Int(counts.errors));
  summary.Set("warnings", Int(counts.warnings));
  summary.Set("ignored", Int(run.ignored));
  doc::Node root = doc::Node::Mapping();
  root.Set("findings", findings);
  root.Set("summary", summary);
  return json::Write(root, /*pretty=*/true);
}

}  // namespace tjr::report
