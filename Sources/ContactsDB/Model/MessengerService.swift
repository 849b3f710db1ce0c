/// The messenger services typed input accepts, as the `has` filter names
/// them.
public enum MessengerService: String, CaseIterable, Hashable, Sendable {
    case telegram, whatsapp, viber, signal, threema
}
