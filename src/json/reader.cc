// The one adapter to RapidJSON's SAX reader. RapidJSON reports no positions
// of its own, so the input stream below records where each token starts.

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <optional>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gocompat/strconv.h"
#include "gocompat/utf8.h"
#include "json/json.h"
#include "json/locator.h"
#include "json/lone_surrogates.h"

namespace tjr::json {
namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A RapidJSON input stream over [begin, limit). Bytes past `limit` read as
// end of input, which is how the size limit stops the parser.
class PlainStream {
 public:
  using Ch = char;

  PlainStream(const char* base, const char* begin, const char* limit) : base_(base), cur_(begin), limit_(limit) {}

  Ch Peek() const { return cur_ < limit_ ? *cur_ : '\0'; }
  Ch Take() { return cur_ < limit_ ? *cur_++ : '\0'; }
  std::size_t Tell() const { return static_cast<std::size_t>(cur_ - base_); }
  bool at_limit() const { return cur_ >= limit_; }

  // Output side of the stream concept; only in-situ parsing uses it.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

 protected:
  const char* base_;
  const char* cur_;
  const char* limit_;
};

// The same stream remembering the offset of the latest token start (a
// quote, bracket, or the first byte of a number or literal). Handler
// callbacks fire before the next token is taken, so that offset is the
// start of the value being reported. RapidJSON calls streams through their
// own type, so this Take is the one it uses.
class TrackingStream : public PlainStream {
 public:
  using PlainStream::PlainStream;

  Ch Take() {
    if (cur_ >= limit_) return '\0';
    const char c = *cur_;
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      after_boundary_ = false;
    } else if (IsJsonSpace(c) || c == ',' || c == ':' || c == '[' || c == '{') {
      if (c == '[' || c == '{') token_start_ = cur_;
      after_boundary_ = true;
    } else {
      if (c == '"') {
        in_string_ = true;
        token_start_ = cur_;
      } else if (after_boundary_) {
        token_start_ = cur_;
      }
      after_boundary_ = false;
    }
    ++cur_;
    return c;
  }

  std::size_t token_start() const { return static_cast<std::size_t>(token_start_ - base_); }
  // The iterative parser announces a container before taking its bracket.
  std::size_t container_start() const {
    const char c = Peek();
    return c == '{' || c == '[' ? Tell() : token_start();
  }

 private:
  const char* token_start_ = cur_;
  bool in_string_ = false;
  bool escaped_ = false;
  bool after_boundary_ = true;
};

std::string ToString(const char* s, rapidjson::SizeType n) {
  std::string_view text(s, n);
  if (gocompat::IsValidUtf8(text)) return std::string(text);
  return gocompat::CoerceToValidUtf8(text);
}

// Builds doc::Node trees from SAX events.
template <class Stream>
class TreeBuilder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, TreeBuilder<Stream>> {
 public:
  TreeBuilder(const Stream& stream, Locator& locator, const ReadOptions& options)
      : stream_(stream), locator_(locator), options_(options) {}

  bool Null() { return Add(doc::Node::Null(Here())); }
  bool Bool(bool value) { return Add(doc::Node::Bool(value, Here())); }

  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    const std::string_view text(s, n);
    const Location at = Here();
    if (auto i = gocompat::ParseInt(text, 10)) return Add(doc::Node::Int(*i, at, std::string(text)));
    if (auto f = gocompat::ParseDecimalFloat(text)) return Add(doc::Node::Float(*f, at, std::string(text)));
    return Fail(at, "number " + std::string(text) + " is out of the range of a 64-bit float");
  }

  bool String(const char* s, rapidjson::SizeType n, bool) {
    return Add(doc::Node::String(ToString(s, n), Here()));
  }

  bool Key(const char* s, rapidjson::SizeType n, bool) {
    Frame& frame = stack_.back();
    frame.key = ToString(s, n);
    frame.key_location = Here();
    if (const Location* first = frame.FindKey(frame.key)) {
      return Fail(frame.key_location, "key \"" + frame.key + "\" already set in map (first set at " +
                                          first->ToString() + ")");
    }
    return true;
  }

  bool StartObject() { return Open(doc::Node::Mapping(ContainerStart())); }
  bool StartArray() { return Open(doc::Node::Sequence(ContainerStart())); }
  bool EndObject(rapidjson::SizeType) { return Close(); }
  bool EndArray(rapidjson::SizeType) { return Close(); }

  std::optional<Diagnostic>& error() { return error_; }
  doc::Node& root() { return root_; }

 private:
  struct Frame {
    doc::Node node;
    std::vector<doc::Field>* fields = nullptr;  // into node's representation
    std::vector<doc::Node>* items = nullptr;
    std::string key;
    Location key_location;
    // Small maps are searched linearly; large ones get a set once they grow.
    std::unordered_set<std::string> key_set;

    const Location* FindKey(const std::string& key) {
      static constexpr std::size_t kLinearLimit = 16;
      if (fields->size() <= kLinearLimit) {
        for (const doc::Field& field : *fields) {
          if (field.key == key) return &field.key_location;
        }
        return nullptr;
      }
      if (key_set.empty()) {
        for (const doc::Field& field : *fields) key_set.insert(field.key);
      }
      if (key_set.count(key) == 0) return nullptr;
      for (const doc::Field& field : *fields) {
        if (field.key == key) return &field.key_location;
      }
      return nullptr;
    }
  };

  static constexpr bool kTracking = std::is_same_v<Stream, TrackingStream>;

  Location Here() {
    if constexpr (kTracking) {
      return locator_.At(stream_.token_start());
    } else {
      return Location{locator_.file(), 0, 0};
    }
  }
  Location ContainerStart() {
    if constexpr (kTracking) {
      return locator_.At(stream_.container_start());
    } else {
      return Location{locator_.file(), 0, 0};
    }
  }

  bool Fail(Location at, std::string message) {
    error_ = AsInputError(MakeError(at, "", std::move(message)));
    return false;
  }

  bool Open(doc::Node node) {
    if (stack_.size() >= options_.max_depth) {
      return Fail(node.location(), "JSON nesting exceeds the maximum depth of " +
                                       std::to_string(options_.max_depth));
    }
    Frame& frame = stack_.emplace_back();
    frame.node = std::move(node);
    if (frame.node.is_mapping()) {
      frame.fields = &frame.node.mutable_fields();
    } else {
      frame.items = &frame.node.mutable_items();
    }
    return true;
  }

  bool Close() {
    doc::Node done = std::move(stack_.back().node);
    stack_.pop_back();
    return Add(std::move(done));
  }

  bool Add(doc::Node value) {
    if (++values_ > options_.max_document_values) {
      return Fail(value.location(), "the document holds more than " + std::to_string(options_.max_document_values) +
                                        " values, more than any object the API server accepts");
    }
    if (stack_.empty()) {
      root_ = std::move(value);
      return true;
    }
    Frame& parent = stack_.back();
    if (parent.items != nullptr) {
      parent.items->push_back(std::move(value));
    } else {
      if (!parent.key_set.empty()) parent.key_set.insert(parent.key);
      parent.fields->push_back(
          doc::Field{std::move(parent.key), std::move(value), parent.key_location});
    }
    return true;
  }

  const Stream& stream_;
  Locator& locator_;
  const ReadOptions& options_;
  std::vector<Frame> stack_;
  std::size_t values_ = 0;
  doc::Node root_;
  std::optional<Diagnostic> error_;
};

std::string DescribeParseError(rapidjson::ParseErrorCode code, char at) {
  // RapidJSON files a raw control character under "invalid escape".
  if (code == rapidjson::kParseErrorStringEscapeInvalid && static_cast<unsigned char>(at) < 0x20) {
    return "malformed JSON: control character in string";
  }
  std::string message = rapidjson::GetParseError_En(code);
  if (!message.empty() && message.back() == '.') message.pop_back();
  if (!message.empty() && message[0] >= 'A' && message[0] <= 'Z') message[0] += 'a' - 'A';
  return "malformed JSON: " + message;
}

std::size_t SkipSpace(std::string_view text, std::size_t pos) {
  while (pos < text.size() && IsJsonSpace(text[pos])) ++pos;
  return pos;
}

// Parses the value starting at *pos (which must not be whitespace) and
// moves *pos past it.
template <class Stream>
Result<doc::Node> ParseWith(std::string_view text, std::size_t* pos, Locator& locator, const ReadOptions& options) {
  const char* begin = text.data() + *pos;
  const std::size_t room = text.size() - *pos;
  const bool limited = room > options.max_document_bytes;
  Stream stream(text.data(), begin, limited ? begin + options.max_document_bytes : text.data() + text.size());
  TreeBuilder<Stream> builder(stream, locator, options);
  rapidjson::Reader reader;
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  const rapidjson::ParseResult result = reader.Parse<kFlags>(stream, builder);
  if (builder.error()) return std::move(*builder.error());
  if (result.IsError()) {
    if (limited && stream.at_limit()) {
      return AsInputError(MakeError(locator.At(*pos), "",
                                    "JSON document exceeds the limit of " +
                                        std::to_string(options.max_document_bytes) + " bytes"));
    }
    const std::size_t offset = result.Offset();
    const char at = offset < text.size() ? text[offset] : '\0';
    return AsInputError(MakeError(locator.At(offset), "", DescribeParseError(result.Code(), at)));
  }
  *pos = stream.Tell();
  return std::move(builder.root());
}

// Without locations, a value that fails is parsed again with them, so its
// error is the one the tracked parse gives.
Result<doc::Node> ParseOne(std::string_view text, std::size_t* pos, Locator& locator, const ReadOptions& options) {
  if (!options.locations) {
    std::size_t plain_pos = *pos;
    Result<doc::Node> plain = ParseWith<PlainStream>(text, &plain_pos, locator, options);
    if (plain.ok()) {
      *pos = plain_pos;
      return plain;
    }
  }
  return ParseWith<TrackingStream>(text, pos, locator, options);
}

}  // namespace

Result<doc::Node> Read(std::string_view text, std::string_view source_name,
                       const ReadOptions& options) {
  const std::string* file = InternSourceName(source_name);
  Locator locator(text, file, options.first_line);
  if (text.size() > options.max_document_bytes) {
    return AsInputError(MakeError(Location{file, 0, 0}, "",
                                  "JSON document of " + std::to_string(text.size()) +
                                      " bytes exceeds the limit of " +
                                      std::to_string(options.max_document_bytes) + " bytes"));
  }
  // Same length, so the locator over the original text stays right.
  const std::optional<std::string> go_spelled = ReplaceLoneSurrogateEscapes(text);
  if (go_spelled) text = *go_spelled;
  std::size_t pos = SkipSpace(text, 0);
  if (pos == text.size()) {
    return AsInputError(MakeError(locator.At(pos), "", "malformed JSON: the document is empty"));
  }
  Result<doc::Node> root = ParseOne(text, &pos, locator, options);
  if (!root.ok()) return root;
  pos = SkipSpace(text, pos);
  if (pos != text.size()) {
    return AsInputError(
        MakeError(locator.At(pos), "", "malformed JSON: unexpected content after the document"));
  }
  return root;
}

Result<std::vector<doc::Node>> ReadStream(std::string_view text, std::string_view source_name,
                                          const ReadOptions& options) {
  const std::string* file = InternSourceName(source_name);
  Locator locator(text, file, options.first_line);
  std::vector<doc::Node> values;
  const std::optional<std::string> go_spelled = ReplaceLoneSurrogateEscapes(text);
  if (go_spelled) text = *go_spelled;
  std::size_t pos = SkipSpace(text, 0);
  while (pos < text.size()) {
    Result<doc::Node> value = ParseOne(text, &pos, locator, options);
    if (!value.ok()) return value.take_error();
    values.push_back(std::move(value).value());
    pos = SkipSpace(text, pos);
  }
  return values;
}

}  // namespace tjr::json
