#include "report/finding.h"

namespace tjr::report {

std::string ObjectRef::Display() const {
  return kind + " " + (namespace_.empty() ? name : namespace_ + "/" + name);
}

std::string ObjectRef::Key() const {
  return api_version + "/" + kind + "/" + namespace_ + "/" + name;
}

Finding MakeFinding(Diagnostic diagnostic, ObjectRef object) {
  Finding finding;
  finding.rule = RuleId(diagnostic);
  finding.diagnostic = std::move(diagnostic);
  finding.object = std::move(object);
  return finding;
}

Counts Count(const std::vector<Finding>& findings) {
  Counts counts;
  for (const Finding& f : findings) {
    switch (f.diagnostic.severity) {
      case Severity::kError: ++counts.errors; break;
      case Severity::kWarning: ++counts.warnings; break;
      case Severity::kNote: ++counts.notes; break;
    }
  }
  return counts;
}

std::string SummaryLine(const Results& run) {
  Counts counts = Count(run.findings);
  return std::to_string(run.objects_rendered) + " objects rendered, " + std::to_string(run.objects_checked) +
         " checked, " + std::to_string(run.files_skipped) + " files skipped, " + std::to_string(counts.errors) + " errors, " + std::to_string(counts.warnings) +
         " warnings";
}

}  // namespace tjr::report
