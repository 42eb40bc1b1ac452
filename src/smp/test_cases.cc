#include "smp/test_cases.h"
#include "testkit/temp_dir.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tjr::smp::testing {
namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

std::string Unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

void PrintTo(const MergeCase& merge_case, std::ostream* out) {
  *out << merge_case.file << ":" << merge_case.line << ": " << merge_case.description;
}

std::vector<MergeCase> LoadMergeCases(const std::string& name) {
  const std::string path = testkit::SourcePath("src/smp/testdata/" + name);
  std::ifstream in(path);
  if (!in) Die("cannot read " + path);
  std::vector<MergeCase> cases;
  std::string line;
  std::string* value = nullptr;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("=== ", 0) == 0) {
      MergeCase& added = cases.emplace_back();
      added.file = name;
      added.line = number;
      added.description = line.substr(4);
      value = nullptr;
      continue;
    }
    if (line[0] == ' ' || line[0] == '\t') {
      if (value == nullptr) Die(path + ":" + std::to_string(number) + ": stray continuation");
      *value += "\n" + line;
      continue;
    }
    if (cases.empty()) Die(path + ":" + std::to_string(number) + ": field before first case");
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) Die(path + ":" + std::to_string(number) + ": expected KEY:");
    const std::string key = line.substr(0, colon);
    std::string rest = line.substr(colon + 1);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    MergeCase& current = cases.back();
    if (key == "root") {
      value = &current.root;
    } else if (key == "original") {
      value = &current.original;
    } else if (key == "patch") {
      value = &current.patch;
    } else if (key == "expected") {
      value = &current.expected;
    } else if (key == "error") {
      value = &current.error;
    } else if (key == "path") {
      value = &current.path;
    } else if (key == "panic") {
      value = &current.panic;
    } else if (key == "kubectl") {
      value = &current.kubectl;
    } else if (key == "source") {
      value = &current.source;
    } else if (key == "sort") {
      value = &current.sort;
    } else {
      Die(path + ":" + std::to_string(number) + ": unknown key " + key);
    }
    *value = rest;
  }
  for (MergeCase& each : cases) {
    each.error = Unescape(each.error);
    const int outcomes =
        !each.expected.empty() + !each.error.empty() + !each.panic.empty();
    if (each.original.empty() || each.patch.empty() || outcomes != 1) {
      Die(path + ":" + std::to_string(each.line) + ": case needs original, patch and one of " +
          "expected, error, panic");
    }
  }
  return cases;
}

}  // namespace tjr::smp::testing
