import ContactsDB
import Hummingbird

/// The web app's router: ``AccessGuard`` before every route, then each
/// resource's routes, added by its controller. ``WebApp`` serves it; the
/// tests send requests to it in-process.
///
/// - parameter store: what every route reads and writes.
/// - parameter signIn: the host name, cookie and codes the guard checks.
/// - parameter port: the port served on, known once the server listens
///   (the Host and Origin checks name it).
func buildRouter(store: ContactStore, signIn: SignIn, port: @escaping @Sendable () -> Int) -> Router<BasicRequestContext> {
    let router = Router()
    router.middlewares.add(AccessGuard(signIn: signIn, port: port))
    let group = router.group()
    ListController(store: store).addRoutes(to: group)
    ContactsController(store: store).addRoutes(to: group)
    PhotosController(store: store).addRoutes(to: group)
    DuplicatesController(store: store).addRoutes(to: group)
    RemotesController(store: store).addRoutes(to: group)
    TrashController(store: store).addRoutes(to: group)
    CalendarController(store: store).addRoutes(to: group)
    return router
}
