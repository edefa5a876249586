package dev.cairn.events.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes a record as a release that shipped an older frozen schema wrote it: the record's fields by name, the old
 * schema's defaults for the fields it has and the record lacks, the fields it lacks dropped, in single-object
 * encoding with that schema's fingerprint (shared with other modules' tests).
 */
public final class FrozenSchemaWriter {

    private FrozenSchemaWriter() {
    }

    /** {@code record} (an envelope) written with frozen version {@code version} of its schema. */
    public static byte[] encode(SpecificRecord record, int version) {
        return encode(record, SchemaVersions.frozen(record.getSchema().getName()).get(version - 1));
    }

    /** {@code record} written with {@code writer}, a version of its schema. */
    public static byte[] encode(SpecificRecord record, Schema writer) {
        GenericRecord written = (GenericRecord) convert(record, writer);
        try {
            ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(written);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A value as the old schema holds it: fields by name, the old schema's defaults for fields it lacks. */
    private static Object convert(Object value, Schema schema) {
        switch (schema.getType()) {
            case RECORD -> {
                IndexedRecord source = (IndexedRecord) value;
                GenericData.Record record = new GenericData.Record(schema);
                for (Schema.Field field : schema.getFields()) {
                    Schema.Field current = source.getSchema().getField(field.name());
                    record.put(field.pos(), current == null ? GenericData.get().getDefaultValue(field)
                            : convert(source.get(current.pos()), field.schema()));
                }
                return record;
            }
            case UNION -> {
                for (Schema branch : schema.getTypes()) {
                    if (matches(value, branch)) {
                        return convert(value, branch);
                    }
                }
                throw new AssertionError("no branch of " + schema + " for " + value);
            }
            case ARRAY -> {
                List<Object> list = new ArrayList<>();
                ((List<?>) value).forEach(element -> list.add(convert(element, schema.getElementType())));
                return list;
            }
            case MAP -> {
                Map<String, Object> map = new LinkedHashMap<>();
                ((Map<?, ?>) value).forEach((k, v) -> map.put(k.toString(), convert(v, schema.getValueType())));
                return map;
            }
            case ENUM -> {
                return new GenericData.EnumSymbol(schema, value.toString());
            }
            case STRING -> {
                return value.toString();
            }
            default -> {
                return value;
            }
        }
    }

    private static boolean matches(Object value, Schema branch) {
        return switch (branch.getType()) {
            case NULL -> value == null;
            case RECORD -> value instanceof IndexedRecord r && r.getSchema().getFullName().equals(branch.getFullName());
            case ENUM -> (value instanceof Enum<?> e && SpecificData.get().getSchema(e.getClass()).getFullName()
                    .equals(branch.getFullName())) || value instanceof GenericEnumSymbol<?>;
            case STRING -> value instanceof CharSequence;
            case LONG -> value instanceof Long;
            case INT -> value instanceof Integer;
            case BOOLEAN -> value instanceof Boolean;
            case ARRAY -> value instanceof List<?>;
            case MAP -> value instanceof Map<?, ?>;
            default -> false;
        };
    }
}
