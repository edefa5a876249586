package dev.cairn.sidecar.kafka;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.sidecar.kafka.StartupReads.ControlLookBack;
import dev.cairn.sidecar.kafka.StartupReads.RestoreRecords;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The topics as a starting sidecar would read them: control once, the completed topic read after read (the last
 * read again once every one was handed out).
 */
final class FakeStartupSource implements StartupSource {
    private final List<CheckpointCompleted> onControl;
    private final List<Object> discards;
    private final Deque<RestoreRecords> completed = new ArrayDeque<>();
    private RestoreRecords last;
    int completedReads;

    FakeStartupSource(List<CheckpointCompleted> onControl, RestoreRecords... completedReads) {
        this(onControl, List.of(), completedReads);
    }

    FakeStartupSource(List<CheckpointCompleted> onControl, List<Object> discards, RestoreRecords... completedReads) {
        this.onControl = onControl;
        this.discards = discards;
        this.completed.addAll(List.of(completedReads));
    }

    @Override
    public ControlLookBack controlLookBack() {
        return new ControlLookBack(onControl, discards);
    }

    @Override
    public RestoreRecords restoreRecords() {
        completedReads++;
        last = completed.isEmpty() ? last : completed.pollFirst();
        return last;
    }
}
