#pragma once

#include <optional>
#include <string>
#include <string_view>

// kubectl reads every manifest file through golang.org/x/text's
// unicode.BOMOverride (cli-runtime pkg/resource/visitor.go FileVisitor):
// a UTF-16 file that starts with its byte order mark, as Windows
// PowerShell's `>` writes one, is read as the UTF-8 it spells.
namespace tjr::gocompat {

/// The text of a UTF-16 file that starts with a byte order mark (FF FE:
/// little-endian, FE FF: big-endian) as UTF-8, without the mark; an
/// unpaired surrogate or a last odd byte becomes U+FFFD, as x/text decodes
/// them. Nothing when `bytes` has no UTF-16 byte order mark.
std::optional<std::string> DecodeUtf16WithBom(std::string_view bytes);

}  // namespace tjr::gocompat
