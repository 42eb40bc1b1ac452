#include "cli/out_check.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include "base/file.h"

namespace tjr::cli {
namespace fs = std::filesystem;

namespace {

Diagnostic Stale(const std::string& file, const char* rule, std::string message) {
  Diagnostic d = MakeError(Location{InternSourceName(file)}, "", std::move(message));
  d.rule = rule;
  return d;
}

}  // namespace

void OutTreeCheck::Expect(const std::string& file, const std::string& bytes) {
  std::string key = fs::path(file).lexically_normal().string();
  expected_.insert(key);
  std::error_code error;
  if (!fs::exists(file, error)) {
    findings_.push_back(Stale(file, "rendered-missing", "missing from the rendered tree: run " + rerun_));
    return;
  }
  Result<std::string> current = ReadFile(file);
  if (!current.ok() || *current != bytes) {
    findings_.push_back(Stale(file, "rendered-stale", "stale: the TrainJob renders differently now; run " + rerun_));
  }
}

Diagnostics OutTreeCheck::Finish() {
  std::vector<std::string> extra;
  std::error_code error;
  if (fs::is_directory(dir_, error)) {
    for (auto it = fs::recursive_directory_iterator(dir_, error); !error && it != fs::recursive_directory_iterator();
         it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      std::string ext = it->path().extension().string();
      if (ext != ".yaml" && ext != ".json") continue;
      std::string key = it->path().lexically_normal().string();
      if (!expected_.count(key)) extra.push_back(it->path().string());
    }
  }
  std::sort(extra.begin(), extra.end());
  Diagnostics out = std::move(findings_);
  for (const std::string& file : extra) {
    out.push_back(Stale(file, "rendered-extra",
                        "no TrainJob renders to this file any more: delete it (render --out never deletes files)"));
  }
  return out;
}

}  // namespace tjr::cli
