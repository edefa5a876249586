package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** Guards the release process: every schema Cairn writes is one of the frozen versions it will read forever. */
class CurrentSchemasAreFrozenTest {

    @Test
    void shouldHaveFrozenTheCurrentSchemaOfEveryEnvelope() {
        for (Class<? extends SpecificRecord> type : CairnSerdes.ENVELOPES) {
            Schema current = SpecificData.get().getSchema(type);
            List<Schema> frozen = SchemaVersions.frozen(current.getName());
            assertThat(frozen).as("frozen versions of %s", current.getName()).isNotEmpty();
            boolean frozenAsIs = frozen.get(frozen.size() - 1).equals(current);
            assertThat(frozenAsIs)
                    .as("%s changed since v%d: run FreezeSchemas (see its Javadoc) to freeze v%d",
                            current.getName(), frozen.size(), frozen.size() + 1)
                    .isTrue();
        }
    }

    @Test
    void shouldDetectAChangeThatWouldMakeOldDataUnreadable() {
        Schema v1 = SchemaBuilder.record("Event").fields().requiredString("jobId").endRecord();
        Schema addedWithoutDefault = SchemaBuilder.record("Event").fields()
                .requiredString("jobId").requiredLong("attempt").endRecord();
        Schema addedWithDefault = SchemaBuilder.record("Event").fields()
                .requiredString("jobId").name("attempt").type().longType().longDefault(0).endRecord();

        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(addedWithoutDefault, v1).getType())
                .isEqualTo(SchemaCompatibilityType.INCOMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(addedWithDefault, v1).getType())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }
}
