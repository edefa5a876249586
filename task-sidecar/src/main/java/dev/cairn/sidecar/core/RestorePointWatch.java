package dev.cairn.sidecar.core;

import dev.cairn.events.RestorePointRejected;
import java.util.List;
import java.util.Locale;

/**
 * What the worker restored at start, and whether the job later fell back from it: a {@link RestorePointRejected}
 * naming the checkpoint this worker restored means its state is that of a point the job no longer restores, so the
 * sidecar asks for a restart ({@link SidecarAction.Restart}). A sidecar that restored anything else (the fallback
 * itself, read after the rejection) goes on. Pure; owned by the core.
 */
final class RestorePointWatch {

    private long restored = -1;

    void restored(long checkpointId) {
        restored = checkpointId;
    }

    List<SidecarAction> onRejected(RestorePointRejected rejected, SidecarIdentity identity) {
        if (!identity.jobId().equals(rejected.getJobId()) || restored < 0
                || rejected.getCheckpointId() != restored) {
            return List.of();
        }
        return List.of(new SidecarAction.Restart("the job falls back from checkpoint " + restored + ", which this "
                + "worker restored, to " + rejected.getFallback().getType().name().toLowerCase(Locale.ROOT)
                + " " + rejected.getFallback().getCheckpointId() + " (" + rejected.getMessage() + "); restart it to "
                + "restore the fallback"));
    }
}
