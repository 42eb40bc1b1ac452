#pragma once

#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::yaml {

/// Whether `kubectl -o yaml` can print the tree at all. Its printer passes the
/// data through encoding/json and goyaml's parser, which refuse a few values
/// a tree can hold:
///  - NaN and infinite floats ("json: unsupported value");
///  - strings and keys with DEL, C1 controls other than NEL, U+FFFE or
///    U+FFFF, which encoding/json leaves raw and goyaml's reader rejects;
///  - a NEL directly followed by "---" or "..." and a blank (goyaml reads a
///    raw NEL as a line break, and that line as a document marker);
///  - keys with a NEL (a key split over two lines), or whose JSON text is
///    longer than 1022 characters (goyaml's 1024-character limit on simple
///    keys, quotes included).
/// Write() prints such trees anyway, as goyaml's emitter would; callers that
/// must match kubectl check first. The error names the first offending field.
Status CheckKubectlPrintable(const doc::Node& root);

/// The value test of CheckKubectlPrintable: "" when kubectl can print `s`,
/// else its error text.
std::string_view KubectlStringProblem(std::string_view s);

/// The key test of CheckKubectlPrintable.
std::string_view KubectlKeyProblem(std::string_view key);

}  // namespace tjr::yaml
