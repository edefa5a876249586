package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.TaskStarted;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.SchemaStore;
import org.junit.jupiter.api.Test;

/**
 * {@code TaskStarted.host} (AckEnvelope v5, JournalEnvelope v12) between releases: a sidecar of the release before
 * sends no host, which this release reads as none; a sidecar of this release sends one, which a coordinator of the
 * release before reads (its AckEnvelope v4 as reader, this release's schema resolved from {@code cairn.schemas})
 * without it and with every other field intact.
 */
class TaskStartedHostTest {

    private static final TaskStarted STARTED = TaskStarted.newBuilder().setJobId("orders").setTaskId("enrich")
            .setSubtaskIndex(2).setAttemptId("attempt-7").setTimestampMs(1_700_000_000_000L)
            .setHost("worker-3.pool-a.cluster.local").build();

    @Test
    void shouldReadATaskStartedOfTheReleaseBeforeWithNoHost() throws IOException {
        Schema previous = frozen("AckEnvelope", 4);
        GenericRecord event = new GenericData.Record(previous.getField("event").schema().getTypes().get(0));
        event.put("jobId", "orders");
        event.put("taskId", "enrich");
        event.put("subtaskIndex", 2);
        event.put("attemptId", "attempt-7");
        event.put("timestampMs", 1_700_000_000_000L);
        GenericRecord envelope = new GenericData.Record(previous);
        envelope.put("event", event);

        AckEnvelope read = CairnSerdes.acks().deserialize("cairn.acks",
                bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), previous).encode(envelope)));

        assertThat(read.getEvent()).isEqualTo(TaskStarted.newBuilder(STARTED).setHost(null).build());
    }

    @Test
    void shouldBeReadWithoutItsHostByACoordinatorOfTheReleaseBeforeThatResolvedThisReleasesSchema()
            throws IOException {
        Schema current = AckEnvelope.getClassSchema();
        byte[] written = CairnSerdes.acks().serialize("cairn.acks", new AckEnvelope(STARTED));
        SchemaStore.Cache published = new SchemaStore.Cache();
        published.addSchema(current);
        Schema previous = frozen("AckEnvelope", 4);

        GenericRecord read = new BinaryMessageDecoder<GenericRecord>(GenericData.get(), previous, published)
                .decode(written);

        GenericRecord event = (GenericRecord) read.get("event");
        assertThat(event.getSchema().getField("host")).as("the previous release's TaskStarted").isNull();
        assertThat(List.of(event.get("jobId"), event.get("taskId"), event.get("subtaskIndex"), event.get("attemptId"),
                event.get("timestampMs")).toString()).isEqualTo("[orders, enrich, 2, attempt-7, 1700000000000]");
    }

    @Test
    void shouldKeepTheHostThroughTheJournal() {
        AvroEventSerde<JournalEnvelope> journal = CairnSerdes.journal();

        JournalEnvelope read = journal.deserialize("cairn.journal",
                journal.serialize("cairn.journal", new JournalEnvelope(STARTED)));

        assertThat(((TaskStarted) read.getEvent()).getHost()).isEqualTo("worker-3.pool-a.cluster.local");
    }

    private static Schema frozen(String envelope, int version) {
        return SchemaVersions.frozen(envelope).get(version - 1);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
