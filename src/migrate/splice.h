#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "migrate/plan.h"
#include "yaml/reader_spans.h"

// The text edits that turn one TrainJob's old fields into the new one.
namespace tjr::migrate {

/// Replace [begin, end) of the text by `replacement`.
struct Edit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;
};

/// `text` with non-overlapping `edits` made.
std::string Apply(std::string_view text, std::vector<Edit> edits);

/// One TrainJob's splice: the edits and what the document must read as
/// once they are made.
struct TrainJobSplice {
  std::vector<Edit> edits;
  doc::Node expected;
};

/// Plans the splice of `plan` into the document `root` (its spans) of
/// `text`: the first of the old fields in text order becomes the new field
/// (same place, the file's style), the others go with their lines (block
/// style) or their comma (flow style); moved values are copied as text. An
/// error (without location) when the text does not allow it (aliases or
/// merge keys where the fields are).
Result<TrainJobSplice> SpliceTrainJob(std::string_view text, const yaml::SpanNode& root,
                                      const doc::Node& document, const Plan& plan);

}  // namespace tjr::migrate
