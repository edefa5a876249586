package dev.cairn.kit.storage;

import java.io.IOException;

/**
 * There is no object at a location: what {@link SnapshotStorage#read} and {@link SnapshotStorage#size} throw for a
 * missing object. In: the location; out: a message naming it and saying it does not exist.
 */
public final class LocationNotFoundException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String location;

    /** No object at {@code location}. */
    public LocationNotFoundException(String location, Throwable cause) {
        super("the location " + location + " does not exist", cause);
        this.location = location;
    }

    /** The location that has no object. */
    public String location() {
        return location;
    }
}
