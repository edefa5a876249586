package dev.cairn.client.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.NewerSchemas;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.events.serde.SchemaSamples;
import java.time.Duration;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * {@code cairn audit} of this release reads a journal written by a coordinator of the next release, whose schema it
 * finds on the schemas topic; without it the records stay undecodable, as before.
 */
class NewerJournalDecoderTest {

    private static final Schema NEWER = NewerSchemas.withNewField(NewerSchemas.current(JournalEnvelope.class));

    @Test
    void shouldDecodeEveryEventOfANewerJournalWithTheSchemasTopicAndNoneWithout() {
        SchemaCatalog catalog = new SchemaCatalog(() -> List.of(new SchemaCatalog.Entry(SchemaPublisher.key(NEWER),
                SchemaPublisher.value(NEWER), "cairn.schemas-0@0")), Duration.ofSeconds(10), Duration.ofSeconds(1),
                System::nanoTime);
        JournalDecoder withCatalog = new JournalDecoder(catalog);
        JournalDecoder without = new JournalDecoder();

        for (JournalEnvelope sample : SchemaSamples.oneOfEachEvent(JournalEnvelope.class)) {
            byte[] value = NewerSchemas.encode(NEWER, NewerSchemas.asNewer(sample, NEWER,
                    envelope -> envelope.put(NewerSchemas.NEW_FIELD, "written by the next release")));

            assertThat(withCatalog.decode("cairn.journal", value)).isEqualTo(sample.getEvent());
            assertThat(catchThrowableOfType(EventDecodingException.class,
                    () -> without.decode("cairn.journal", value)).problem())
                    .isEqualTo(EventDecodingException.Problem.UNKNOWN_SCHEMA);
        }
    }
}
