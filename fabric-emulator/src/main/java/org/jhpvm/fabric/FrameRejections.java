package org.jhpvm.fabric;

/**
 * For fabric implementations: the exceptions that say why a frame may not be sent or released, so that every
 * fabric refuses bad frames with the same words. Slow path only: a NIC tests its conditions inline and calls these
 * to build the exception.
 */
public final class FrameRejections {
    private FrameRejections() {
    }

    /**
     * Builds the exception for a frame a NIC refuses to send, naming the first broken condition in this order:
     * another fabric's frame, a frame of another NIC or pool, a frame not held by the host
     * ({@link IllegalStateException}), a destination outside the fabric; if none of these, the length is blamed.
     * Call it only once a check has failed. It only builds the exception; the caller throws it, having changed
     * nothing.
     *
     * @param frame      the refused frame
     * @param fabric     the fabric the sending NIC belongs to
     * @param nic        the sending NIC
     * @param home       the pool a sendable frame of this NIC has ({@link Frame#home()})
     * @param nicCount   NICs of the fabric
     * @param frameBytes the fabric's frame size
     * @return why the frame may not be sent
     */
    public static RuntimeException send(final Frame frame, final Object fabric, final int nic, final int home,
                                        final int nicCount, final int frameBytes) {
        if (frame.origin() != fabric) {
            return new IllegalArgumentException("frame " + frame + " belongs to another fabric");
        }
        if (frame.owner() != nic || frame.home() != home) {
            return new IllegalArgumentException("frame owned by NIC " + frame.owner() + " cannot be sent by NIC "
                + nic + ": acquire frames from the sending NIC");
        }
        if (frame.state() != FrameDescriptor.STATE_HOST) {
            return new IllegalStateException("frame state is " + FrameDescriptor.stateName(frame.state())
                + ", not HOST: it was already sent or released");
        }
        final int dst = frame.destination();
        if (dst < 0 || dst >= nicCount) {
            return new IllegalArgumentException("destination=" + dst + " is not a NIC of this fabric (0.."
                + (nicCount - 1) + ")");
        }
        return new IllegalArgumentException("length=" + frame.length() + " outside 0..frameBytes=" + frameBytes);
    }

    /**
     * Builds the exception for a frame a NIC refuses to release: another fabric's frame, or a frame delivered to or
     * acquired from another NIC ({@link IllegalArgumentException}), or a frame in a state that cannot be released
     * ({@link IllegalStateException}). It only builds the exception; the caller throws it, having changed nothing.
     *
     * @param frame  the refused frame
     * @param fabric the fabric the releasing NIC belongs to
     * @param nic    the releasing NIC
     * @return why the frame may not be released through that NIC
     */
    public static RuntimeException release(final Frame frame, final Object fabric, final int nic) {
        if (frame.origin() != fabric) {
            return new IllegalArgumentException("frame " + frame + " belongs to another fabric");
        }
        final int state = frame.state();
        if (state == FrameDescriptor.STATE_DELIVERED) {
            return new IllegalArgumentException("frame " + frame + " was delivered to NIC " + frame.destination()
                + ": release it through that NIC, not NIC " + nic);
        }
        if (state == FrameDescriptor.STATE_HOST) {
            return new IllegalArgumentException("frame " + frame + " was acquired from NIC " + frame.owner()
                + ": release it through that NIC, not NIC " + nic);
        }
        return new IllegalStateException("frame state is " + FrameDescriptor.stateName(state)
            + ": only a delivered frame or an acquired one not sent can be released");
    }
}
