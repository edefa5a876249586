package dev.cairn.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.CurrentAttempt;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Test;

/**
 * The attempts' store values gained the host without a store layout change: a value written before (attempt id and
 * start time only), in a store or a snapshot, still decodes, with no host.
 */
class AttemptValuesTest {

    @Test
    void shouldDecodeAnAttemptWrittenBeforeTheHostExistedWithNoHost() throws IOException {
        Schema first = SchemaBuilder.record("CurrentAttempt").namespace("dev.cairn.coordinator.state").fields()
                .requiredString("attemptId").requiredLong("startedAtMs").endRecord();
        GenericRecord written = new GenericData.Record(first);
        written.put("attemptId", "attempt-1");
        written.put("startedAtMs", 5L);
        ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), first).encode(written);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);

        assertThat(StateTable.ATTEMPTS.decode(bytes)).isEqualTo(new CurrentAttempt("attempt-1", 5L, null));
    }

    @Test
    void shouldWriteAndReadTheHostOfTheCurrentAttempt() {
        CurrentAttempt attempt = new CurrentAttempt("attempt-2", 7L, "worker-1.cluster.local");

        assertThat(StateTable.ATTEMPTS.decode(StateTable.ATTEMPTS.encode(attempt))).isEqualTo(attempt);
    }
}
