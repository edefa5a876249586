package dev.cairn.events.serde;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Builds sample data for any Avro schema: one envelope per branch of its event union (shared with other modules'
 * tests).
 */
public final class SchemaSamples {

    private SchemaSamples() {}

    /** One generic envelope per branch of the envelope's first union field (or one record if it has none). */
    public static List<GenericRecord> oneOfEachEvent(Schema envelope) {
        Schema.Field unionField = envelope.getFields().stream()
                .filter(f -> f.schema().getType() == Schema.Type.UNION)
                .findFirst().orElse(null);
        List<GenericRecord> samples = new ArrayList<>();
        if (unionField == null) {
            samples.add((GenericRecord) sample(envelope, 1));
            return samples;
        }
        List<Schema> branches = unionField.schema().getTypes();
        for (int i = 0; i < branches.size(); i++) {
            GenericData.Record record = new GenericData.Record(envelope);
            for (Schema.Field field : envelope.getFields()) {
                record.put(field.pos(),
                        field == unionField ? sample(branches.get(i), i + 1) : sample(field.schema(), i + 1));
            }
            samples.add(record);
        }
        return samples;
    }

    /** The same samples as the generated specific classes. */
    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> List<T> oneOfEachEvent(Class<T> type) {
        Schema schema = SpecificData.get().getSchema(type);
        return oneOfEachEvent(schema).stream().map(g -> (T) SpecificData.get().deepCopy(schema, g)).toList();
    }

    static Object sample(Schema schema, int seed) {
        return switch (schema.getType()) {
            case RECORD -> {
                GenericData.Record record = new GenericData.Record(schema);
                for (Schema.Field field : schema.getFields()) {
                    record.put(field.pos(), sample(field.schema(), seed + field.pos()));
                }
                yield record;
            }
            case UNION -> sample(schema.getTypes().get(schema.getTypes().size() - 1), seed);
            case ENUM -> new GenericData.EnumSymbol(schema,
                    schema.getEnumSymbols().get(seed % schema.getEnumSymbols().size()));
            case ARRAY -> List.of(sample(schema.getElementType(), seed), sample(schema.getElementType(), seed + 1));
            case MAP -> Map.of("k" + seed, sample(schema.getValueType(), seed));
            case STRING -> "s" + seed;
            case LONG -> 1_000L * seed;
            case INT -> seed;
            case BOOLEAN -> seed % 2 == 0;
            case DOUBLE -> seed / 4.0;
            case FLOAT -> seed / 4.0f;
            case BYTES -> ByteBuffer.wrap(new byte[] {(byte) seed});
            case FIXED -> new GenericData.Fixed(schema, new byte[schema.getFixedSize()]);
            case NULL -> null;
        };
    }
}
