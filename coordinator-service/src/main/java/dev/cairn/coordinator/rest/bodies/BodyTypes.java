package dev.cairn.coordinator.rest.bodies;

/**
 * The classes the request bodies are bound to, as the API's description ({@code GET /openapi.json}) shows them: one
 * per body, read with Jackson's request names.
 */
public final class BodyTypes {

    /** {@code PUT /jobs/{jobId}}. */
    public static final Class<?> JOB_SPEC = JobSpecBody.class;
    /** {@code DELETE /jobs/{jobId}}. */
    public static final Class<?> REMOVE = RemoveBody.Remove.class;
    /** {@code POST /jobs/{jobId}/restore}. */
    public static final Class<?> RESTORE = RestoreBodies.Restore.class;
    /** {@code POST /jobs/{jobId}/savepoints/dispose}. */
    public static final Class<?> DISPOSE = RestoreBodies.Dispose.class;
    /** {@code POST /jobs/{jobId}/rescaling}. */
    public static final Class<?> RESCALE = RescaleBodies.Rescale.class;

    private BodyTypes() {
    }

    /** The class of a trigger endpoint's body. */
    public static Class<?> of(TriggerBodies body) {
        return body.type();
    }
}
