#include "yaml/fy_parser.h"

namespace tjr::yaml::input {
namespace {

void DiscardDiagnosticOutput(fy_diag*, void*, const char*, size_t) {}

}  // namespace

FyParser OpenFyParser(std::string_view text, const char** failure) {
  FyParser out;
  fy_diag_cfg diag_cfg;
  fy_diag_cfg_default(&diag_cfg);
  diag_cfg.fp = nullptr;
  diag_cfg.output_fn = DiscardDiagnosticOutput;
  diag_cfg.colorize = false;
  out.diag.reset(fy_diag_create(&diag_cfg));
  if (!out.diag) {
    *failure = "cannot create a libfyaml diagnostics object";
    return {};
  }
  fy_diag_set_collect_errors(out.diag.get(), true);

  fy_parse_cfg cfg{};
  cfg.flags = static_cast<fy_parse_cfg_flags>(FYPCF_QUIET | FYPCF_JSON_NONE | FYPCF_ALLOW_DUPLICATE_KEYS |
                                              FYPCF_SLOPPY_FLOW_INDENTATION);
  cfg.diag = out.diag.get();
  out.parser.reset(fy_parser_create(&cfg));
  if (!out.parser) {
    *failure = "cannot create a libfyaml parser";
    return {};
  }
  if (fy_parser_set_string(out.parser.get(), text.data(), text.size()) != 0) {
    *failure = "libfyaml refused the input";
    return {};
  }
  return out;
}

}  // namespace tjr::yaml::input
