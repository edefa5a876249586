package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.coordinator.state.CurrentAttempt;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateKeys;
import dev.cairn.core.state.StateKeys.AckKey;
import dev.cairn.core.state.StateKeys.AttemptKey;
import dev.cairn.core.state.StateKeys.CheckpointKey;
import dev.cairn.core.state.StateKeys.VertexKey;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.serde.AvroEventSerde;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.InMemoryKeyValueStore;
import org.junit.jupiter.api.Test;

class StreamsStorageTest {

    @Test
    void shouldEncodeKeysAsTheStoresOfTheFirstReleaseDid() {
        HexFormat hex = HexFormat.of();
        assertThat(hex.formatHex(StateKeys.JOB.encode("j"))).isEqualTo("6a");
        assertThat(hex.formatHex(StateKeys.VERTEX.encode(new VertexKey("j", "t"))))
                .isEqualTo("000000016a0000000174");
        assertThat(hex.formatHex(StateKeys.SUBTASK.encode(new AttemptKey("j", "t", 2))))
                .isEqualTo("000000016a000000017480000002");
        assertThat(hex.formatHex(StateKeys.CHECKPOINT.encode(new CheckpointKey("j", 3))))
                .isEqualTo("000000016a8000000000000003");
        assertThat(hex.formatHex(StateKeys.ACK.encode(new AckKey("j", 3, "t", 2))))
                .isEqualTo("000000016a8000000000000003000000017480000002");
    }

    @Test
    void shouldDecodeEveryKeyItEncodes() {
        AckKey ack = new AckKey("job-é", -4, "task", 7);
        assertThat(StateKeys.ACK.decode(StateKeys.ACK.encode(ack))).isEqualTo(ack);
        AttemptKey attempt = new AttemptKey("job", "task", Integer.MAX_VALUE);
        assertThat(StateKeys.SUBTASK.decode(StateKeys.SUBTASK.encode(attempt))).isEqualTo(attempt);
    }

    @Test
    void shouldEncodeValuesAsTheSingleObjectEncodingOfTheirCurrentSchema() {
        CurrentAttempt attempt = new CurrentAttempt("attempt-1", 5L, "worker-1.cluster.local");
        byte[] expected = AvroEventSerde.currentOnly(CurrentAttempt.class).serialize("any", attempt);

        assertThat(StateTable.ATTEMPTS.encode(attempt)).isEqualTo(expected);
        assertThat(StateTable.ATTEMPTS.decode(expected)).isEqualTo(attempt);
    }

    @Test
    void shouldOpenOnlyTheStoresAQueryReads() {
        List<String> opened = new ArrayList<>();
        CoordinatorState state = CoordinatorState.over(StreamsStorage.forQueries(name -> {
            opened.add(name);
            return store(name);
        }));

        assertThat(state.job("j")).isEmpty();
        assertThat(state.acks("j", 1)).isEmpty();

        assertThat(opened).containsExactly(StateTable.JOBS.store(), StateTable.ACKS.store());
    }

    @Test
    void shouldReadGroupsByPrefixAndRefuseWritesFromQueries() {
        KeyValueStore<Bytes, byte[]> acks = store(StateTable.ACKS.store());
        CoordinatorState writer = CoordinatorState.over(StreamsStorage.forTask(name -> acks));
        writer.putAck(ack("j", 1, "b", 0));
        writer.putAck(ack("j", 1, "a", 1));
        writer.putAck(ack("j", 2, "a", 0));
        CoordinatorState reader = CoordinatorState.over(StreamsStorage.forQueries(name -> acks));

        assertThat(reader.acks("j", 1)).extracting(CheckpointAcknowledged::getTaskId).containsExactly("a", "b");
        assertThat(reader.progress("j", 1).acksReceived()).isEqualTo(2);
        assertThatThrownBy(() -> reader.removeAcks("j", 1)).isInstanceOf(UnsupportedOperationException.class);

        writer.removeAcks("j", 1);

        assertThat(reader.acks("j", 1)).isEmpty();
        assertThat(reader.acks("j", 2)).hasSize(1);
    }

    @Test
    void shouldAnswerAnAbsentAckFromItsKeptKeysWithoutReadingTheStore() {
        CountingStore acks = new CountingStore();
        List<Bytes> reads = acks.reads;
        CheckpointAcknowledged restored = ack("j", 1, "a", 0);
        acks.put(Bytes.wrap(StateKeys.ACK.encode(new AckKey("j", 1, "a", 0))), StateTable.ACKS.encode(restored));
        CoordinatorState state = CoordinatorState.over(StreamsStorage.forTask(name -> acks));

        assertThat(state.ack("j", 1, "a", 1)).isEmpty();
        assertThat(state.ack("j", 2, "a", 0)).isEmpty();
        assertThat(reads).isEmpty();
        assertThat(state.ack("j", 1, "a", 0)).contains(restored);
        assertThat(reads).hasSize(1);

        state.putAck(ack("j", 1, "a", 1));
        assertThat(state.ack("j", 1, "a", 1)).isPresent();
        state.removeAcks("j", 1);
        reads.clear();

        assertThat(state.ack("j", 1, "a", 0)).isEmpty();
        assertThat(state.ack("j", 1, "a", 1)).isEmpty();
        assertThat(reads).isEmpty();
        assertThat(acks.approximateNumEntries()).isZero();
    }

    @Test
    void shouldHandACheckpointItWroteWholeToItsFirstReadWithoutDecodingTheStore() {
        CountingStore acks = new CountingStore();
        CoordinatorState state = CoordinatorState.over(StreamsStorage.forTask(name -> acks));

        assertThat(state.progress("j", 1).acksReceived()).isZero();
        state.putAck(ack("j", 1, "b", 0));
        state.putAck(ack("j", 1, "a", 1));

        assertThat(state.acks("j", 1)).extracting(CheckpointAcknowledged::getTaskId).containsExactly("a", "b");
        assertThat(acks.scans).isZero();
        assertThat(state.acks("j", 1)).extracting(CheckpointAcknowledged::getTaskId).containsExactly("a", "b");
        assertThat(acks.scans).isOne();
        state.removeAcks("j", 2);
        assertThat(acks.scans).isOne();
    }

    @Test
    void shouldReadTheStoreForACheckpointThatHadAcksBeforeTheStorageStarted() {
        CountingStore acks = new CountingStore();
        acks.put(Bytes.wrap(StateKeys.ACK.encode(new AckKey("j", 1, "a", 0))),
                StateTable.ACKS.encode(ack("j", 1, "a", 0)));
        CoordinatorState state = CoordinatorState.over(StreamsStorage.forTask(name -> acks));

        state.putAck(ack("j", 1, "a", 1));
        int scansBefore = acks.scans;

        assertThat(state.acks("j", 1)).extracting(CheckpointAcknowledged::getSubtaskIndex).containsExactly(0, 1);
        assertThat(acks.scans).isEqualTo(scansBefore + 1);
    }

    @Test
    void shouldKeepAtMostItsBoundOfAcksWhenManyCheckpointsStartTogether() {
        CountingStore acks = new CountingStore();
        StreamsStorage storage = StreamsStorage.forTask(name -> acks);
        CoordinatorState state = CoordinatorState.over(storage);
        int checkpoints = 12;
        int subtasks = KeptGroups.MAX_VALUES / 10;
        int mostKept = 0;

        for (int subtask = 0; subtask < subtasks; subtask++) {
            for (long checkpoint = 1; checkpoint <= checkpoints; checkpoint++) {
                state.putAck(ack("j", checkpoint, "t", subtask));
                mostKept = Math.max(mostKept, storage.valuesKept(StateTable.ACKS));
            }
        }

        assertThat(checkpoints * subtasks).isGreaterThan(KeptGroups.MAX_VALUES);
        assertThat(mostKept).isEqualTo(KeptGroups.MAX_VALUES);
        for (long checkpoint = 1; checkpoint <= checkpoints; checkpoint++) {
            assertThat(state.acks("j", checkpoint)).as("checkpoint %d", checkpoint).hasSize(subtasks);
        }
        assertThat(storage.valuesKept(StateTable.ACKS)).isZero();
        assertThat(acks.scans).as("the checkpoints let go of were read from the store").isPositive();
    }

    @Test
    void shouldLetGoOfTheAcksOfACheckpointThatEndedWithoutCompleting() {
        CountingStore acks = new CountingStore();
        StreamsStorage storage = StreamsStorage.forTask(name -> acks);
        CoordinatorState state = CoordinatorState.over(storage);
        state.putAck(ack("j", 1, "a", 0));
        state.putAck(ack("j", 1, "b", 0));
        state.putAck(ack("j", 2, "a", 0));

        state.acksSettled("j", 1);

        assertThat(storage.valuesKept(StateTable.ACKS)).isOne();
        assertThat(state.acks("j", 1)).hasSize(2);
        assertThat(acks.scans).isOne();
    }

    /** An in-memory store that counts its single-key reads and its prefix scans. */
    private static final class CountingStore extends InMemoryKeyValueStore {
        final List<Bytes> reads = new ArrayList<>();
        int scans;

        CountingStore() {
            super(StateTable.ACKS.store());
        }

        @Override
        public synchronized byte[] get(Bytes key) {
            reads.add(key);
            return super.get(key);
        }

        @Override
        public synchronized <S extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix,
                S prefixKeySerializer) {
            scans++;
            return super.prefixScan(prefix, prefixKeySerializer);
        }
    }

    private static KeyValueStore<Bytes, byte[]> store(String name) {
        return new InMemoryKeyValueStore(name);
    }

    private static CheckpointAcknowledged ack(String job, long checkpointId, String task, int subtask) {
        return Events.ack(job, checkpointId, task, subtask, "attempt-" + subtask)
                .setStateHandle(Events.state("mem://" + task + "/" + subtask, 10)).setTimestampMs(0).build();
    }
}
