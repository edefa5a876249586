package dev.cairn.sidecar.app;

import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** Hooks that {@link HookFactoryTest} cannot use. */
final class HookFactoryTestHooks {

    private HookFactoryTestHooks() {
    }

    /** Refuses every call. */
    public abstract static class Base implements SnapshotHook {
        @Override
        public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void notifyComplete(long checkpointId, long lastSubsumedId) {
        }

        @Override
        public void notifyAborted(long checkpointId, long latestCompletedId) {
        }

        @Override
        public void restore(Optional<RestorePoint> from) {
        }
    }

    /** Does nothing, but can be instantiated. */
    public static final class Silent extends Base {
    }

    /** Its constructor throws. */
    public static final class Failing extends Base {
        public Failing() {
            throw new IllegalStateException("no license");
        }
    }
}
