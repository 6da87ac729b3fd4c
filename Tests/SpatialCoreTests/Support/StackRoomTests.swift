import Testing
@testable import SpatialCore

/// The premise of ``StackRoom``: a temporary allocation of its size is placed on the machine
/// stack. Not run under AddressSanitizer (`.ci/run` leaves this suite out of that step), which
/// moves stack allocations to heap-backed frames of its own.
@Suite("StackRoom")
struct StackRoomTests {
    @Test("a temporary allocation of StackRoom.bytes lies next to a small one (both on the stack)")
    func stackRoomIsOnTheStack() {
        // Eight bytes are always stack-allocated (the standard library's rule up to 1,024), so the
        // two should share a frame.
        let distance = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { small in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: StackRoom.bytes) { room in
                let a = UInt(bitPattern: small.baseAddress), b = UInt(bitPattern: room.baseAddress)
                return a > b ? a - b : b - a
            }
        }
        // A heap block would be megabytes away (another mapping); the two allocas share a frame.
        #expect(distance < 64 * 1024, "distance \(distance) bytes")
        #expect(StackRoom.capacity(of: Int.self) == 128)
    }
}
