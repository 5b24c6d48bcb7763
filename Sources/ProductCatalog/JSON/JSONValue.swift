/// A JSON document whose objects keep their keys in the order given.
///
/// Output people and scripts read (`catalog search --json`, the web API) lists `productId`
/// first and extra columns last, in file order, as the README documents it. `JSONEncoder` cannot
/// keep an order: on Linux (Swift 6.3.1) it writes one object's keys in a different order in
/// each process, and `.sortedKeys` would move `productId` and scatter the extras. The types
/// that have a `jsonValue` are `Encodable` through it, for an app that wants its own encoder.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One key and value of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key–value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// A string, or null for nil.
    public static func string(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// The compact JSON text.
    public var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? String(value) : "null"
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            self = .object(try object.allKeys.map { Member($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? value.decode(Int.self) {
                self = .int(int)
            } else if let double = try? value.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var object = encoder.container(keyedBy: AnyCodingKey.self)
            for member in members { try object.encode(member.value, forKey: AnyCodingKey(member.key)) }
        case .array(let values):
            var array = encoder.unkeyedContainer()
            for value in values { try array.encode(value) }
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let bool):
            var value = encoder.singleValueContainer()
            try value.encode(bool)
        case .int(let int):
            var value = encoder.singleValueContainer()
            try value.encode(int)
        case .double(let double):
            var value = encoder.singleValueContainer()
            try value.encode(double)
        case .string(let string):
            var value = encoder.singleValueContainer()
            try value.encode(string)
        }
    }
}
