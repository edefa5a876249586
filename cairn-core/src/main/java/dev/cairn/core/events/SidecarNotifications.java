package dev.cairn.core.events;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.StateDiscarded;
import org.apache.avro.specific.SpecificRecord;

/**
 * Which journal events sidecars act on, and so also go to {@code cairn.control} (Flink: what the coordinator
 * sends to tasks and coordinators): of the kinds that {@link EventKind#mayGoToSidecars}, triggers, aborts, the
 * completion of a checkpoint or of a stop-with-savepoint (Flink does not notify tasks of an ordinary savepoint's
 * completion, so a two-phase-commit sink never commits on one), a discarded ack's state handle, which the
 * subtask that sent it should delete, and the discarded states of a checkpoint that names any.
 */
public final class SidecarNotifications {

    private SidecarNotifications() {
    }

    /**
     * Whether the event goes to {@code cairn.control} too.
     *
     * @throws IllegalArgumentException when the event is no journal event
     */
    public static boolean isForSidecars(SpecificRecord event) {
        EventKind kind = EventKind.of(event);
        if (!kind.mayGoToSidecars()) {
            return false;
        }
        if (event instanceof CheckpointCompleted c) {
            return SnapshotKinds.isRestorePoint(c);
        }
        if (event instanceof StateDiscarded discarded) {
            return !discarded.getObjects().isEmpty();
        }
        return !(event instanceof AckDiscarded a)
                || a.getStatus() != AckDiscardStatus.DUPLICATE && a.getStateHandle() != null;
    }
}
