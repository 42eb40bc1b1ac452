// The `junit` report, in the shape kubeconform made common: one testcase
// per checked object (clean ones included, so a CI test tab counts them),
// classname "Kind@apiVersion", name "namespace/name"; errors are one
// <failure>, warnings go to <system-out>. Findings about no object (an
// unreadable file) get a testcase named after their file.
#include <map>

#include "base/display.h"
#include "report/junit.h"
#include "report/format.h"

namespace tjr::report {
namespace {

struct Case {
  std::string classname;
  std::string name;
  std::vector<const Finding*> errors;
  std::vector<const Finding*> warnings;
};

std::string CaseKey(const Finding& f) {
  if (f.object.known()) return "o:" + f.object.Key();
  return "f:" + (f.diagnostic.location.known() ? *f.diagnostic.location.file : std::string());
}

Case& CaseFor(const std::string& key, std::vector<Case>* cases, std::map<std::string, std::size_t>* index) {
  auto [it, inserted] = index->emplace(key, cases->size());
  if (inserted) cases->emplace_back();
  return (*cases)[it->second];
}

// Names as text shows them: XML 1.0 cannot carry most controls, even as
// character references.
void Name(const ObjectRef& object, Case* c) {
  c->classname = EscapedForDisplay(object.kind + "@" + object.api_version);
  c->name = EscapedForDisplay(object.namespace_.empty() ? object.name : object.namespace_ + "/" + object.name);
}

}  // namespace

std::string WriteJunit(const Results& run) {
  std::vector<Case> cases;
  std::map<std::string, std::size_t> index;
  for (const ObjectRef& subject : run.subjects) {
    Name(subject, &CaseFor("o:" + subject.Key(), &cases, &index));
  }
  for (const Finding& f : run.findings) {
    Case& c = CaseFor(CaseKey(f), &cases, &index);
    if (c.name.empty()) {
      if (f.object.known()) {
        Name(f.object, &c);
      } else {
        c.classname = "file";
        c.name = f.diagnostic.location.known() ? QuotedName(*f.diagnostic.location.file) : "tjrender";
      }
    }
    if (f.diagnostic.severity == Severity::kError) c.errors.push_back(&f);
    if (f.diagnostic.severity == Severity::kWarning) c.warnings.push_back(&f);
  }
  std::size_t failures = 0;
  for (const Case& c : cases) failures += c.errors.empty() ? 0 : 1;
  std::string counts = "tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
                       std::to_string(failures) + "\" errors=\"0\" skipped=\"0\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites " + counts + ">\n";
  out += "  <testsuite name=\"tjrender\" " + counts + ">\n";
  for (const Case& c : cases) {
    out += "    <testcase name=\"" + XmlEscapeAttribute(c.name) + "\" classname=\"" +
           XmlEscapeAttribute(c.classname) + "\"";
    if (c.errors.empty() && c.warnings.empty()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (!c.errors.empty()) {
      const Finding& first = *c.errors.front();
      std::string text;
      for (const Finding* f : c.errors) text += f->diagnostic.ToString() + "\n";
      out += "      <failure message=\"" + XmlEscapeAttribute(EscapedForDisplay(MessageWithoutRule(first.diagnostic))) +
             "\" type=\"" + XmlEscapeAttribute(first.rule) + "\">" + XmlEscape(text) +
             "</failure>\n";
    }
    if (!c.warnings.empty()) {
      std::string text;
      for (const Finding* f : c.warnings) text += f->diagnostic.ToString() + "\n";
      out += "      <system-out>" + XmlEscape(text) + "</system-out>\n";
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace tjr::report
