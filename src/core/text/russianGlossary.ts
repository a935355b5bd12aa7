/**
 * A small hand-written Russian → English glossary of generic technical and office vocabulary, read
 * as wordGlossary.ts reads Korean and Thai: neither npm nor Debian ships a Russian-English
 * dictionary in a form Skill Router can carry (Debian's `mueller7-dict` and FreeDict's eng-rus are
 * dict-server files for the other direction), and the encoder reads English only. Without it a
 * request such as "покажи последние ошибки в Bugsnag" is matched on "Bugsnag" alone. Generic
 * vocabulary only: nothing here names a skill or a request of any library.
 *
 * Russian writes words apart and inflects them: each entry is a stem (ошибк → ошибка, ошибки,
 * ошибку, ошибкой), and a word is read by the longest stem it starts with when what follows is an
 * ending (at most four letters; at most two after a stem of three, so код is not read in кодекс).
 * Irregular forms have their own entries (ошибок, покажи). ё is read as е. One line per stem: the
 * stem, then English alternatives separated by `|`, best first.
 */
const RUSSIAN = `
ошибк error|bug
ошибок errors
баг bug
сбой failure|crash
падени crash|failure
пада crash|fail
упал crashed|failed
исключени exception
проблем problem|issue
задач task|issue
тикет ticket|issue
ишью issue
иссью issue
исправ fix
почин fix
починк fix
решени solution|decision
реш solve|decide
отлад debug
дебаг debug
тест test
тестирован testing
провер check|verify
проверк check|review
ревью review
обзор review|overview
код code
кодов code
программ program
скрипт script
функци function
метод method
класс class
модул module
компонент component
библиотек library
пакет package
зависимост dependency
верси version
обновлени update
обнов update
обновит update
установ install
установк installation
настро configure|set up
настройк settings|configuration
конфигураци configuration
конфиг config
параметр parameter
переменн variable
окружени environment
сервер server
клиент client
сервис service
запрос request|query
ответ response|answer
api api
эндпоинт endpoint
базы database
база database
баз database
данны data
таблиц table
колонк column
строк row|line
запис record|write
поле field
схем schema
миграци migration
индекс index
файл file
папк folder
каталог directory|catalog
директори directory
документ document
документаци documentation
стать article
текст text
заметк note
отчет report
презентаци presentation
слайд slide
график chart|graph
диаграмм diagram|chart
изображени image
картинк image|picture
фото photo
видео video
аудио audio
звук sound
голос voice
письм email|letter
почт mail|email
имейл email
емейл email
сообщени message
уведомлени notification
чат chat
канал channel
календар calendar
встреч meeting
созвон call|meeting
событи event
расписани schedule
пользовател user
аккаунт account
учетн account
парол password
ключ key
токен token
доступ access
прав permission|right
авторизаци authorization
аутентификаци authentication
безопасност security
уязвимост vulnerability
репозитори repository
репо repo
ветк branch
коммит commit
коммиты commits
мерж merge
слия merge
слит merge
пулл pull
пул pull
реквест request
релиз release
деплой deploy
разверт deploy
сборк build
собер build
собрат build
запуст run|launch
запуск run|launch
выполн run|execute
останов stop
перезапуст restart
процесс process
поток thread|stream
очеред queue
лог log
логи logs
журнал log|journal
трассировк trace
метрик metric
мониторинг monitoring
производительност performance
скорост speed
оптимизац optimization
оптимизир optimize
памят memory
диск disk
сет network
сеть network
домен domain
сайт site|website
страниц page
ссылк link
браузер browser
вкладк tab
окн window
панел pane|panel
терминал terminal
консол console
команд command
сесси session
интерфейс interface
дизайн design
макет layout|mockup
шрифт font
цвет color
стил style
анимаци animation
кнопк button
форм form
архитектур architecture
спецификаци specification|spec
спек spec
требовани requirement
план plan
планир plan
роадмап roadmap
проект project
продукт product
функционал functionality|feature
фич feature
пример example
шаблон template
структур structure
рефактор refactor
рефакторинг refactoring
перепиш rewrite
переписа rewrite
улучш improve
удал delete|remove
добав add
созда create
создан create
сдела make|do
напиш write
написа write
пиш write
покаж show
показа show
показыва show
посмотр look|check
смотр look
найд find
найт find
наход find
поиск search
иска search
откр open
закр close
получ get|fetch
скача download
загруз upload|load
выгруз export
экспорт export
импорт import
отправ send
отправк send
перевед translate
перевод translation
перевест translate
сравн compare
объясн explain
опиш describe
описа describe
описани description
анализ analysis|analyze
проанализир analyze
разбер analyze|sort out
суммир summarize
кратк brief|summary
резюм summary
итог summary|result
результат result
статистик statistics
отслеж track
следи track
отмет mark
помет mark
назнач assign
приоритет priority
статус status
состояни state|status
истори history
изменени change
измен change
откат rollback|revert
отмен cancel|undo
восстанов restore|recover
сохран save
копи copy
бэкап backup
резервн backup
очист clean|clear
чистк cleanup
генерир generate
сгенерир generate
конверт convert
преобразова convert
форматир format
формат format
валидаци validation
валидир validate
парс parse
парсинг parsing
помог help
помощ help
нужн need
надо need
хочу want
последн latest|last
нов new
стар old
текущ current
сегодн today
вчер yesterday
недел week
месяц month
врем time
дат date
все all
весь all
кажд each|every
список list
спис list
перечисл list
открыт open
закрыт closed
сбоя failure
сбоев failures
сбор collect
чини fix
поле field
поля fields
полей fields
решит solve|decide
ищи search|find
правил rule
правильн correct
правк edit
сетап setup
старт start
датасет dataset
кодом code
логов logs
логин login
багов bugs
удаленн remote
нужен need
пайплайн pipeline
контейнер container
образ image
кластер cluster
облак cloud
модел model
обучени training
нейросет neural network
промпт prompt
агент agent
навык skill
плагин plugin
расширени extension
редактор editor
раздел section|split
раздели split
`;

function parse(lines: string): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const line of lines.trim().split('\n')) {
    const space = line.indexOf(' ');
    const stem = line.slice(0, space);
    if (!out.has(stem)) out.set(stem, line.slice(space + 1).split('|').map((s) => s.trim()).filter(Boolean));
  }
  return out;
}

/** Russian stem → English alternatives, best first. */
export const RUSSIAN_GLOSSARY = parse(RUSSIAN);

const LONGEST = Math.max(...[...RUSSIAN_GLOSSARY.keys()].map((k) => k.length));
/** Letters an ending may have after a stem (after a stem of three, `SHORT_ENDING`). */
const ENDING = 4;
const SHORT_ENDING = 2;

/**
 * The glossary stem a Russian word (letters only) is read by, or null: the longest stem the word
 * starts with, where what follows is an ending.
 */
export function russianStem(word: string): string | null {
  const w = word.toLowerCase().replace(/ё/g, 'е');
  for (let n = Math.min(LONGEST, w.length); n >= 3; n--) {
    const stem = w.slice(0, n);
    if (!RUSSIAN_GLOSSARY.has(stem)) continue;
    if (w.length - n <= (n === 3 ? SHORT_ENDING : ENDING)) return stem;
  }
  return null;
}
