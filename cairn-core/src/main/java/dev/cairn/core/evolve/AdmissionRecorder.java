package dev.cairn.core.evolve;

import dev.cairn.coordinator.state.AdmittedRequest;
import dev.cairn.coordinator.state.AdmittedRequests;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.events.RequestAdmitted;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the keys of a job's admitted requests ({@link RequestAdmitted}) for two freshness windows of requester time,
 * the window each admission recorded: a replay is refused as stale once it is a window older than its append time,
 * and a request appended within a window of another's append time was made within two windows of it, so a key is
 * kept as long as its replay could be fresh. Older keys are forgotten at the next admission.
 */
public final class AdmissionRecorder {

    private AdmissionRecorder() {
    }

    static void admitted(CoordinatorState state, RequestAdmitted e) {
        String jobId = e.getJobId();
        AdmittedRequests before = state.get(StateTable.ADMISSIONS, jobId).orElse(null);
        long newest = before == null ? e.getRequestedAtMs()
                : Math.max(before.getNewestRequestedAtMs(), e.getRequestedAtMs());
        List<AdmittedRequest> requests = before == null ? new ArrayList<>()
                : kept(before, newest, e.getWindowMs());
        requests.add(AdmittedRequest.newBuilder().setRequestKey(e.getRequestKey())
                .setRequestedAtMs(e.getRequestedAtMs()).build());
        state.put(StateTable.ADMISSIONS, jobId, AdmittedRequests.newBuilder().setJobId(jobId)
                .setNewestRequestedAtMs(newest).setRequests(requests).build());
    }

    /**
     * The keys of {@code admitted} still kept once a request made at {@code requestedAtMs} is admitted in a window of
     * {@code windowMs}: those made at most two windows before the newest requester time.
     */
    public static List<AdmittedRequest> kept(AdmittedRequests admitted, long requestedAtMs, long windowMs) {
        long newest = Math.max(admitted.getNewestRequestedAtMs(), requestedAtMs);
        long horizon = newest - 2 * windowMs;
        List<AdmittedRequest> kept = new ArrayList<>(admitted.getRequests().size() + 1);
        for (AdmittedRequest request : admitted.getRequests()) {
            if (request.getRequestedAtMs() >= horizon) {
                kept.add(request);
            }
        }
        return kept;
    }
}
