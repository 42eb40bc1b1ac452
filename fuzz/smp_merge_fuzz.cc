// Strategic merge as `kubectl patch --local` runs it, on an object and a
// patch cut from the input at the first line "%%" (no such line: the patch
// is {}). The first byte picks the options (typed decode, JSON output).
// An error or a result, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kubectl/patch_local.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  tjr::kubectl::PatchLocalOptions options;
  options.typed = (data[0] & 1) != 0;
  options.output = (data[0] & 2) != 0 ? tjr::kubectl::OutputFormat::kJson : tjr::kubectl::OutputFormat::kYaml;
  options.jobset_version = (data[0] & 4) != 0 ? "v0.12" : "v0.10";
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t cut = text.find("\n%%\n");
  const std::string_view object = cut == std::string_view::npos ? text : text.substr(0, cut + 1);
  const std::string_view patch = cut == std::string_view::npos ? std::string_view("{}") : text.substr(cut + 4);
  tjr::Result<std::string> merged = tjr::kubectl::PatchLocal(object, "object.yaml", patch, "patch.yaml", options);
  if (!merged.ok() && !merged.error().location.known()) __builtin_trap();  // every error names its file
  return 0;
}
