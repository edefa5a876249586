package dev.cairn.kit.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** An output topic and commit marker in memory; can be told to fence the next commit. */
final class InMemoryCommitter implements EpochCommitter {

    final List<SinkRecord> output = new ArrayList<>();
    final List<Long> markers = new ArrayList<>();
    OptionalLong marker = OptionalLong.empty();
    boolean fenceNextCommit;
    int initialisations;
    boolean closed;

    @Override
    public OptionalLong initialise() {
        initialisations++;
        return marker;
    }

    @Override
    public void commit(List<Epoch> epochs, long newMarker) {
        if (fenceNextCommit) {
            throw new SinkFailedException("fenced by a newer incarnation", true, null);
        }
        epochs.forEach(epoch -> output.addAll(epoch.records()));
        markers.add(newMarker);
        marker = OptionalLong.of(newMarker);
    }

    @Override
    public void close() {
        closed = true;
    }
}
