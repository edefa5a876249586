package dev.cairn.sidecar.hook;

import java.io.IOException;

/**
 * What {@link SnapshotHook#restore} throws when the state at the restore point cannot be read: an object of it is
 * missing, truncated or fails its checksum. The sidecar of a task reports it to the coordinator
 * ({@code RestoreFailed}), which falls back to the previous retained checkpoint when the job has one, and fails its
 * start-up with the message; a restart restores the fallback. Any other failure of a restore only fails the start-up.
 * The HTTP hook's worker answers a restore with status 422 for it, the command hook's exits with status 3.
 */
public class StateUnreadableException extends IOException {

    private static final long serialVersionUID = 1L;

    /** @param message what is missing or corrupt, naming the location */
    public StateUnreadableException(String message) {
        super(message);
    }

    public StateUnreadableException(String message, Throwable cause) {
        super(message, cause);
    }
}
