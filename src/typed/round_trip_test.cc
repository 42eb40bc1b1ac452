// encoding/json semantics of the typed round trip, on small hand-built
// types. Expectations follow Go 1.24's encoding/json (decode.go, encode.go)
// and the API types' JSON methods; behaviour also visible through kubectl
// is checked against it in round_trip_pod_test.cc.
#include "typed/round_trip.h"

#include <cmath>
#include <deque>
#include <limits>

#include <gtest/gtest.h>

#include "json/json.h"

namespace tjr::typed {
namespace {

using schema::Field;
using schema::Type;

// Owns a small graph of types.
class Types {
 public:
  const Type* Basic(const char* name, Type::Kind kind) { return Add(name, kind); }
  const Type* String() { return Basic("string", Type::Kind::kString); }
  const Type* Int32() { return Basic("int32", Type::Kind::kInt); }
  const Type* Custom(const char* name) { return Add(name, Type::Kind::kCustomJson); }
  const Type* SliceOf(const Type* elem) {
    Type* t = Add("[]" + elem->name, Type::Kind::kSlice);
    t->elem = elem;
    return t;
  }
  const Type* MapOf(const Type* elem) {
    Type* t = Add("map[string]" + elem->name, Type::Kind::kMap);
    t->elem = elem;
    return t;
  }
  Type* Struct(const char* name) { return Add(name, Type::Kind::kStruct); }

 private:
  Type* Add(std::string name, Type::Kind kind) {
    Type& t = types_.emplace_back();
    t.name = std::move(name);
    t.kind = kind;
    return &t;
  }
  std::deque<Type> types_;
};

Field F(const char* name, const Type* type, bool omitempty = false, bool pointer = false) {
  Field f;
  f.json_name = name;
  f.type = type;
  f.omitempty = omitempty;
  f.pointer = pointer;
  return f;
}

doc::Node Json(std::string_view text) {
  Result<doc::Node> node = json::Read(text, "test.json");
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? *node : doc::Node();
}

std::string Out(const doc::Node& value, const Type& type) {
  Result<doc::Node> out = TypedRoundTrip(value, type);
  if (!out) return "error: " + out.error().message;
  return json::Write(*out, false);
}

// Keys in the order a mapping holds them, depth first.
void KeyOrder(const doc::Node& node, std::string* out) {
  if (node.is_mapping()) {
    for (const doc::Field& f : node.fields()) {
      *out += f.key + ",";
      KeyOrder(f.value, out);
    }
  } else if (node.is_sequence()) {
    for (const doc::Node& item : node.items()) KeyOrder(item, out);
  }
}

class RoundTripTest : public ::testing::Test {
 protected:
  RoundTripTest() {
    inner_ = types_.Struct("example.com/api/v1.Inner");
    inner_->fields = {F("x", types_.Int32(), true), F("y", types_.Int32(), true)};
    outer_ = types_.Struct("example.com/api/v1.Outer");
    outer_->fields = {
        F("name", types_.String()),
        F("title", types_.String(), true),
        F("count", types_.Int32(), true),
        F("flag", types_.Basic("bool", Type::Kind::kBool), true),
        F("ratio", types_.Basic("float64", Type::Kind::kFloat), true),
        F("small", types_.Basic("int8", Type::Kind::kInt), true),
        F("inner", inner_),
        F("ptr", inner_, true, true),
        F("list", types_.SliceOf(inner_), true),
        F("plain", types_.SliceOf(types_.String())),
        F("labels", types_.MapOf(types_.String()), true),
        F("size", types_.Custom("k8s.io/apimachinery/pkg/api/resource.Quantity"), true, true),
        F("port", types_.Custom("k8s.io/apimachinery/pkg/util/intstr.IntOrString"), true),
        F("when", types_.Custom("k8s.io/apimachinery/pkg/apis/meta/v1.Time"), true),
        F("any", types_.Basic("any", Type::Kind::kAny), true),
    };
  }

  Types types_;
  Type* inner_;
  Type* outer_;
};

TEST_F(RoundTripTest, ZeroValueShowsNonOmittedFields) {
  // name has no omitempty: ""; inner is a struct: never empty; plain has no
  // omitempty: a nil slice is null; IntOrString zero is 0; a zero
  // metav1.Time marshals as null even with omitempty (it is a struct).
  EXPECT_EQ(Out(Json("{}"), *outer_),
            R"({"inner":{},"name":"","plain":null,"port":0,"when":null})");
  Result<doc::Node> out = TypedRoundTrip(Json("{}"), *outer_);
  ASSERT_TRUE(out.ok());
  std::string order;
  KeyOrder(*out, &order);
  EXPECT_EQ(order, "name,inner,plain,port,when,");  // Go field order, not sorted
}

TEST_F(RoundTripTest, OmitEmptyDropsZeroValues) {
  EXPECT_EQ(Out(Json(R"({"title":"","count":0,"flag":false,"ratio":0,"list":[],"labels":{},
                         "ptr":null,"any":null,"plain":[]})"),
                *outer_),
            R"({"inner":{},"name":"","plain":[],"port":0,"when":null})");
  // A pointer to a zero struct is not empty.
  EXPECT_EQ(Out(Json(R"({"ptr":{}})"), *outer_),
            R"({"inner":{},"name":"","plain":null,"port":0,"ptr":{},"when":null})");
}

TEST_F(RoundTripTest, UnknownKeysDroppedAndCaseFolded) {
  EXPECT_EQ(Out(Json(R"({"Name":"n","TITLE":"t","bogus":1,"Inner":{"X":1}})"), *outer_),
            R"({"inner":{"x":1},"name":"n","plain":null,"port":0,"title":"t","when":null})");
  // The Kelvin sign folds to K; other non-ASCII letters match nothing.
  Type* kind = types_.Struct("example.com/api/v1.Kind");
  kind->fields = {F("kind", types_.String(), true)};
  EXPECT_EQ(Out(Json("{\"\xe2\x84\xaaind\":\"Pod\"}"), *kind), R"({"kind":"Pod"})");
  EXPECT_EQ(Out(Json("{\"k\xc3\xafnd\":\"Pod\"}"), *kind), "{}");
}

// Keys are decoded in json.Marshal's sorted order; "NAME" sorts before
// "name", so the exact match is applied last and wins.
TEST_F(RoundTripTest, LaterKeyMatchingSameFieldWins) {
  EXPECT_EQ(Out(Json(R"({"name":"exact","NAME":"folded"})"), *outer_),
            R"({"inner":{},"name":"exact","plain":null,"port":0,"when":null})");
}

// Two keys for one field decode into the same Go value: structs and
// pointed-to structs merge, maps keep entries, slices reuse elements.
TEST_F(RoundTripTest, RepeatedFieldMergesLikeGo) {
  EXPECT_EQ(Out(Json(R"({"Inner":{"x":1},"inner":{"y":2},"Ptr":{"x":3},"ptr":{"y":4},
                         "Labels":{"a":"1"},"labels":{"b":"2"},
                         "List":[{"x":1},{"x":2}],"list":[{"y":3}]})"),
                *outer_),
            R"({"inner":{"x":1,"y":2},"labels":{"a":"1","b":"2"},"list":[{"x":1,"y":3}],)"
            R"("name":"","plain":null,"port":0,"ptr":{"x":3,"y":4},"when":null})");
  EXPECT_EQ(Out(Json(R"({"Ptr":{"x":3},"ptr":null})"), *outer_),
            R"({"inner":{},"name":"","plain":null,"port":0,"when":null})");
}

TEST_F(RoundTripTest, NullLeavesValuesAlone) {
  EXPECT_EQ(Out(Json(R"({"name":null,"inner":null,"count":null,"port":null,"when":null,
                         "labels":{"k":null},"size":null})"),
                *outer_),
            R"({"inner":{},"labels":{"k":""},"name":"","plain":null,"port":0,"when":null})");
}

TEST_F(RoundTripTest, ScalarsTypedPerField) {
  EXPECT_EQ(Out(Json(R"({"count":7.0,"ratio":2.0,"small":-128,"any":{"b":[1,2.5],"a":9007199254740993}})"),
                *outer_),
            R"({"any":{"a":9007199254740992,"b":[1,2.5]},"count":7,"inner":{},"name":"",)"
            R"("plain":null,"port":0,"ratio":2,"small":-128,"when":null})");
  Result<doc::Node> out = TypedRoundTrip(Json(R"({"ratio":2.5,"count":7.0})"), *outer_);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->Find("count")->is_int());
  EXPECT_TRUE(out->Find("ratio")->is_float());
}

TEST_F(RoundTripTest, CustomTypes) {
  EXPECT_EQ(Out(Json(R"({"size":"1.5Gi","port":"http","when":"2024-01-02T03:04:05+02:00"})"), *outer_),
            R"({"inner":{},"name":"","plain":null,"port":"http","size":"1536Mi",)"
            R"("when":"2024-01-02T01:04:05Z"})");
  EXPECT_EQ(Out(Json(R"({"size":2,"port":8080.0,"when":"0001-01-01T00:00:00Z"})"), *outer_),
            R"({"inner":{},"name":"","plain":null,"port":8080,"size":"2","when":null})");
}

TEST_F(RoundTripTest, StringsAreMadeValidUtf8) {
  doc::Node value = doc::Node::Mapping();
  value.Set("name", doc::Node::String("a\xff"));
  doc::Node labels = doc::Node::Mapping();
  labels.Set("k\xfe", doc::Node::String("v"));
  value.Set("labels", labels);
  EXPECT_EQ(Out(value, *outer_),
            "{\"inner\":{},\"labels\":{\"k\xef\xbf\xbd\":\"v\"},\"name\":\"a\xef\xbf\xbd\","
            "\"plain\":null,\"port\":0,\"when\":null}");
}

TEST_F(RoundTripTest, OmitZeroUsesIsZero) {
  Type* meta = types_.Struct("example.com/api/v1.Meta");
  Field created = F("creationTimestamp", types_.Custom("k8s.io/apimachinery/pkg/apis/meta/v1.Time"), true);
  created.omitzero = true;
  meta->fields = {created};
  EXPECT_EQ(Out(Json("{}"), *meta), "{}");
  EXPECT_EQ(Out(Json(R"({"creationTimestamp":"0001-01-01T00:00:00Z"})"), *meta), "{}");
  EXPECT_EQ(Out(Json(R"({"creationTimestamp":"2020-01-01T00:00:00Z"})"), *meta),
            R"({"creationTimestamp":"2020-01-01T00:00:00Z"})");
  // *metav1.Time has the method too: a pointer to the zero time is omitted.
  Field deleted = F("deletionTimestamp", created.type, true, true);
  deleted.omitzero = true;
  meta->fields = {deleted};
  EXPECT_EQ(Out(Json(R"({"deletionTimestamp":"0001-01-01T00:00:00Z"})"), *meta), "{}");
  deleted.omitzero = false;
  meta->fields = {deleted};
  EXPECT_EQ(Out(Json(R"({"deletionTimestamp":"0001-01-01T00:00:00Z"})"), *meta),
            R"({"deletionTimestamp":null})");
}

TEST_F(RoundTripTest, FieldsV1IsKeptVerbatim) {
  Type* entry = types_.Struct("example.com/api/v1.Entry");
  entry->fields = {F("fieldsV1", types_.Custom("k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1"), true, true)};
  EXPECT_EQ(Out(Json(R"({"fieldsV1":{"f:b":{},"f:a":{".":{}}}})"), *entry),
            R"({"fieldsV1":{"f:a":{".":{}},"f:b":{}}})");
  EXPECT_EQ(Out(Json(R"({"fieldsV1":null})"), *entry), "{}");
}

TEST_F(RoundTripTest, TypeErrorsNameStructAndFieldPath) {
  Result<doc::Node> out = TypedRoundTrip(Json(R"({"list":[{"x":"1"}]})"), *outer_);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message,
            "json: cannot unmarshal string into Go struct field Inner.list.x of type int32");
  EXPECT_EQ(out.error().field_path, "list[0].x");
  EXPECT_EQ(out.error().location.line, 1u);
  EXPECT_EQ(Out(Json(R"({"small":128})"), *outer_),
            "error: json: cannot unmarshal number 128 into Go struct field Outer.small of type int8");
  EXPECT_EQ(Out(Json(R"({"plain":"x"})"), *outer_),
            "error: json: cannot unmarshal string into Go struct field Outer.plain of type []string");
  EXPECT_EQ(Out(Json(R"({"flag":1})"), *outer_),
            "error: json: cannot unmarshal number into Go struct field Outer.flag of type bool");
  EXPECT_EQ(Out(Json(R"({"port":true})"), *outer_),
            "error: json: cannot unmarshal bool into Go struct field Outer.port of type int32");
  EXPECT_EQ(Out(Json(R"({"when":[]})"), *outer_),
            "error: json: cannot unmarshal array into Go struct field Outer.when of type string");
  EXPECT_EQ(Out(Json(R"("text")"), *outer_),
            "error: json: cannot unmarshal string into Go value of type v1.Outer");
}

// The first type error in decode order is reported, not the first in the
// document; an error from a custom UnmarshalJSON stops decoding at once
// and wins over type errors already seen.
TEST_F(RoundTripTest, ErrorPrecedence) {
  EXPECT_EQ(Out(Json(R"({"title":5,"count":"x"})"), *outer_),
            "error: json: cannot unmarshal string into Go struct field Outer.count of type int32");
  EXPECT_EQ(Out(Json(R"({"count":"x","size":"1x"})"), *outer_),
            "error: quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(Out(Json(R"({"count":"x","when":"never"})"), *outer_),
            "error: parsing time \"never\" as \"2006-01-02T15:04:05Z07:00\": cannot parse "
            "\"never\" as \"2006\"");
}

TEST_F(RoundTripTest, UnsupportedInputsAreErrors) {
  doc::Node value = doc::Node::Mapping();
  value.Set("count", doc::Node::Float(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(Out(value, *outer_), "error: json: unsupported value: NaN");
  Type* odd = types_.Struct("example.com/api/v1.Odd");
  odd->fields = {F("raw", types_.Custom("k8s.io/apimachinery/pkg/runtime.RawExtension"))};
  EXPECT_EQ(Out(Json(R"({"raw":{}})"), *odd),
            "error: tjrender: no typed round trip for custom JSON type "
            "k8s.io/apimachinery/pkg/runtime.RawExtension");
}

// TypedRoundTrip over a typed base keeps what the value still shares with
// it and otherwise answers as the plain round trip does.
TEST_F(RoundTripTest, SharedPartsOfATypedBaseAreKept) {
  Result<doc::Node> base = TypedRoundTrip(
      Json(R"({"name":"n","inner":{"x":1},"list":[{"x":1},{"y":2}],"labels":{"a":"1"},"plain":[]})"),
      *outer_);
  ASSERT_TRUE(base.ok());
  doc::Node edited = *base;  // copy-on-write: only the root is new
  edited.Set("title", doc::Node::String("t"));
  edited.mutable_fields().insert(edited.mutable_fields().begin(),
                                 doc::Field{"count", doc::Node::Float(3.0), {}});
  Result<doc::Node> kept = TypedRoundTrip(edited, *outer_, *base);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(json::Write(*kept, false), Out(edited, *outer_));
  EXPECT_TRUE(kept->Find("list")->SharesRepresentationWith(*base->Find("list")));
  EXPECT_TRUE(kept->Find("labels")->SharesRepresentationWith(*base->Find("labels")));
  std::string order;
  KeyOrder(*kept, &order);
  EXPECT_EQ(order, "name,title,count,inner,x,list,x,y,plain,labels,a,port,when,");

  // A later key for the same field (the Kelvin sign folds to "kind")
  // decodes into the kept value, which is then decoded for real and merged.
  Type* holder = types_.Struct("example.com/api/v1.Holder");
  holder->fields = {F("kind", inner_)};
  Result<doc::Node> holder_base = TypedRoundTrip(Json(R"({"kind":{"x":1}})"), *holder);
  ASSERT_TRUE(holder_base.ok());
  doc::Node folded = *holder_base;
  folded.Set("\xe2\x84\xaaind", Json(R"({"y":2})"));
  Result<doc::Node> merged = TypedRoundTrip(folded, *holder, *holder_base);
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(json::Write(*merged, false), R"({"kind":{"x":1,"y":2}})");

  // omitzero on a struct around a kept value asks whether that value is
  // zero: a non-nil empty slice is not.
  Type* wrapper = types_.Struct("example.com/api/v1.Wrapper");
  wrapper->fields = {F("plain", types_.SliceOf(types_.String())), F("n", types_.Int32(), true)};
  Type* outside = types_.Struct("example.com/api/v1.Outside");
  Field wrap = F("wrap", wrapper);
  wrap.omitzero = true;
  outside->fields = {wrap};
  Result<doc::Node> outside_base = TypedRoundTrip(Json(R"({"wrap":{"plain":[],"n":1}})"), *outside);
  ASSERT_TRUE(outside_base.ok());
  doc::Node unset = *outside_base;
  doc::Node inner_wrap = *unset.Find("wrap");
  inner_wrap.Erase("n");
  unset.Set("wrap", inner_wrap);
  Result<doc::Node> still = TypedRoundTrip(unset, *outside, *outside_base);
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(json::Write(*still, false), R"({"wrap":{"plain":[]}})");
  EXPECT_EQ(json::Write(*still, false), Out(unset, *outside));
}

}  // namespace
}  // namespace tjr::typed
