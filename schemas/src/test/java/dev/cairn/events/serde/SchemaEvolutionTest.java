package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The journal must stay readable forever: the current schema of every envelope reads data written with
 * every frozen version, by Avro's compatibility rules and by an actual encode and decode of every event.
 */
class SchemaEvolutionTest {

    static Stream<Arguments> frozenVersions() {
        return CairnSerdes.ENVELOPES.stream().flatMap(type -> {
            List<Schema> versions = SchemaVersions.frozen(SpecificData.get().getSchema(type).getName());
            return java.util.stream.IntStream.range(0, versions.size())
                    .mapToObj(i -> Arguments.of(type, i + 1, versions.get(i)));
        });
    }

    @ParameterizedTest(name = "{0} reads v{1}")
    @MethodSource("frozenVersions")
    void shouldReadEveryFrozenVersionWithTheCurrentSchema(Class<? extends SpecificRecord> type, int version,
            Schema writer) {
        Schema reader = SpecificData.get().getSchema(type);
        SchemaCompatibility.SchemaPairCompatibility compatibility =
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        assertThat(compatibility.getType())
                .as("%s v%d: %s", type.getSimpleName(), version, compatibility.getDescription())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);

        AvroEventSerde<? extends SpecificRecord> serde = CairnSerdes.forEnvelope(type);
        BinaryMessageEncoder<GenericRecord> oldWriter = new BinaryMessageEncoder<>(GenericData.get(), writer);
        for (GenericRecord written : SchemaSamples.oneOfEachEvent(writer)) {
            SpecificRecord read = serde.deserialize("journal", encode(oldWriter, written));
            assertSameFields(written, read);
        }
    }

    private static byte[] encode(BinaryMessageEncoder<GenericRecord> encoder, GenericRecord record) {
        try {
            ByteBuffer buffer = encoder.encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Every field the old writer wrote and the reader still has must come back with the same value. */
    private static void assertSameFields(GenericRecord written, SpecificRecord read) {
        assertThat(read.getSchema().getName()).isEqualTo(written.getSchema().getName());
        for (Schema.Field field : written.getSchema().getFields()) {
            Schema.Field readerField = read.getSchema().getField(field.name());
            if (readerField == null) {
                continue;
            }
            Object oldValue = written.get(field.pos());
            Object newValue = read.get(readerField.pos());
            if (oldValue instanceof GenericRecord oldRecord && newValue instanceof SpecificRecord newRecord) {
                assertSameFields(oldRecord, newRecord);
            } else if (oldValue instanceof java.util.List<?> oldList && newValue instanceof java.util.List<?> newList
                    && !oldList.isEmpty() && oldList.get(0) instanceof GenericRecord) {
                assertThat(newList).as(field.name()).hasSameSizeAs(oldList);
                for (int i = 0; i < oldList.size(); i++) {
                    assertSameFields((GenericRecord) oldList.get(i), (SpecificRecord) newList.get(i));
                }
            } else {
                assertThat(String.valueOf(newValue)).as(field.name()).isEqualTo(String.valueOf(oldValue));
            }
        }
    }
}
