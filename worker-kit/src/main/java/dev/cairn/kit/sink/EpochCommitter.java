package dev.cairn.kit.sink;

import java.util.List;
import java.util.OptionalLong;

/**
 * Where a write-ahead sink writes its committed epochs and its commit marker, atomically. The Kafka
 * implementation is {@link KafkaEpochCommitter}; tests of the sink's logic use an in-memory one.
 */
interface EpochCommitter extends AutoCloseable {

    /**
     * Takes over the sink subtask's output: fences every earlier incarnation (their transactions are completed or
     * aborted first), then reads back the commit marker.
     *
     * @return the newest checkpoint whose epochs a previous incarnation committed; empty when none
     * @throws SinkFailedException when the output cannot be reached or the marker is unreadable
     */
    OptionalLong initialise();

    /**
     * Writes the records of {@code epochs}, in order, and the marker {@code marker}, all or nothing.
     *
     * @throws SinkFailedException when the transaction failed (fenced or otherwise); the committer is unusable
     *     afterwards
     */
    void commit(List<Epoch> epochs, long marker);

    @Override
    void close();
}
