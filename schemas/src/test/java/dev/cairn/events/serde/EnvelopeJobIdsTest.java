package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnvelopeJobIdsTest {

    @ParameterizedTest
    @ValueSource(classes = {RequestEnvelope.class, AckEnvelope.class, ControlEnvelope.class, JournalEnvelope.class})
    void shouldFindTheJobOfEveryEventOfEveryTopicsUnion(Class<? extends SpecificRecord> envelope) {
        List<? extends SpecificRecord> samples = SchemaSamples.oneOfEachEvent(envelope);

        assertThat(samples)
                .hasSize(SpecificData.get().getSchema(envelope).getField("event").schema().getTypes().size());
        for (SpecificRecord sample : samples) {
            SpecificRecord event = (SpecificRecord) sample.get(0);
            Schema.Field jobId = event.getSchema().getField(EnvelopeJobIds.FIELD);
            assertThat(jobId).as("the job id field of %s", event.getSchema().getName()).isNotNull();
            assertThat(EnvelopeJobIds.ofEvent(event)).as(event.getSchema().getName())
                    .isEqualTo(event.get(jobId.pos()).toString());
        }
    }

    @Test
    void shouldRefuseAnObjectThatNamesNoJob() {
        assertThatThrownBy(() -> EnvelopeJobIds.ofEvent("a string")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.String");
        assertThatThrownBy(() -> EnvelopeJobIds.ofEvent(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
    }
}
