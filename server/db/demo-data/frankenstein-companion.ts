/**
 * A chapter-by-chapter reading companion to Mary Shelley's Frankenstein (the 1831 text: Letters
 * 1–4, Chapters 1–24), written by the library staff for the demo library. It follows the demo
 * book's two-page reading guide (`demoGuidePages` in ../demo-data.ts), so that the demo book has
 * enough structure for the reading scenario of issue 24: a contents with chapters to jump to, and
 * the word "creature" on many pages to search for.
 *
 * Everything here is our own writing: summaries and pointers, never the novel's text. Quotations
 * are deliberately left out (a few words of a title or a name at most), so the demo stays ours to
 * publish. Where a detail of the plot was uncertain we stayed general rather than guess: students
 * read these pages.
 */

/** One page of the companion, before it is turned into the viewer's markup. */
interface CompanionPage {
  /** The heading line's text, which the book's contents lists: `Letter 1` … `Chapter 24`. */
  heading: string;
  /** What happens, as paragraphs; inline `**bold**` and `_italics_` only. */
  summary: string[];
  /** One or two pointers at a theme or a detail, shown under "Look for". */
  lookFor: string[];
}

// Kept as data rather than ready-made strings so the layout of every page (heading, summary,
// "Look for" list) is decided in one place and cannot drift from page to page.
const PAGES: CompanionPage[] = [
  {
    heading: 'Letter 1',
    summary: [
      '**Robert Walton** writes from St Petersburg to his sister, **Margaret Saville**, in England. He is about to sail for the North Pole, and the icy wind only feeds his hopes: he pictures a land of endless summer daylight, a passage through the northern seas and fame as a discoverer.',
      'He tells her how he prepared. As a boy he read every book of voyages in his uncle’s library; he tried to be a poet and failed; then he hardened his body on whaling voyages to the Arctic and studied mathematics, medicine and the sciences a sea explorer needs. He is on his way to Archangel to hire a ship and a crew, and he cannot say when, or whether, he will come home.',
      'Mary Shelley opens her novel not with Victor Frankenstein but with another ambitious young man, and the whole story will reach us through his letters.',
    ],
    lookFor: [
      'Walton’s language of glory and discovery: compare it with the way Victor speaks of his own ambition in Chapters 3 and 4.',
      'The _frame narrative_: everything that follows is, in the fiction, something Walton has written down for his sister.',
    ],
  },
  {
    heading: 'Letter 2',
    summary: [
      'From Archangel, Walton has hired a ship and is gathering his crew, but he confesses to his sister that he lacks a friend: someone who shares his enthusiasm and could correct his faults. He calls himself self-educated, and regrets that his learning came late and unevenly.',
      'He describes two men on board. His **lieutenant** is brave and hungry for glory. The **master** of the ship is gentle and generous: he once gave up the woman he hoped to marry when he learned that she loved another man, and even gave his rival the means to marry her.',
      'Walton promises to be careful, and he jokes, with a nod to Coleridge’s _Rime of the Ancient Mariner_, that he will not kill an albatross. He will sail as soon as the weather allows.',
    ],
    lookFor: [
      'Walton’s longing for a friend who understands him: the creature will voice the same need, far more desperately, later in the novel.',
      'The allusion to Coleridge’s poem, the tale of a sailor punished for a crime against nature.',
    ],
  },
  {
    heading: 'Letter 3',
    summary: [
      'A very short letter, sent home with a merchant ship returning from Archangel. It is July; Walton is well and already far to the north. The crew are bold and steady, and although sheets of floating ice pass the ship as a warning of the dangers ahead, the summer winds are carrying them towards the regions he longs to reach. He asks Margaret not to worry: he is determined to succeed.',
      'The letter is brief, but it does work in the novel. It lets months pass quickly, reminds us that Margaret is reading at a great distance, and builds a little suspense before the strange events of the next letter.',
    ],
    lookFor: [
      'Walton’s _resolve_: he believes a firm will can master nature. Which other characters share that belief, and where does it lead them?',
      'His confidence here, worth remembering when the ice closes round the ship at the end of the book.',
    ],
  },
  {
    heading: 'Letter 4',
    summary: [
      'Weeks later the ship is caught in ice and fog. When the fog thins, the crew see, far off across the ice, a sledge pulled by dogs and driven by a figure shaped like a man but of gigantic size, heading north.',
      'The next morning they find a second sledge on a drifting slab of ice, with a starving, half-frozen man in it and one dog still alive. Strangely, he asks where the ship is bound before he agrees to come aboard. Walton nurses him back to some strength. The stranger is gentle and wise but sunk in grief, and he is hunting the figure they saw.',
      'Walton comes to love him as the friend he had wished for. When Walton speaks of his own hunger for knowledge at any price, the stranger is alarmed and decides to tell his story as a warning. Walton will write it down each evening.',
    ],
    lookFor: [
      'The first glimpse of the being on the sledge: we see the creature from far away before we know anything about it.',
      'The stranger’s warning: the whole tale is told to change a listener’s mind.',
    ],
  },
  {
    heading: 'Chapter 1',
    summary: [
      'The stranger is **Victor Frankenstein**, of a distinguished family of Geneva. His father, **Alphonse**, a respected public man, married late. For months he searched for his friend **Beaufort**, a merchant who had lost his fortune and hidden himself away, only to arrive just after Beaufort had died in poverty, nursed to the end by his daughter **Caroline**. Alphonse took Caroline under his protection, and two years later they married.',
      'Victor was born in Naples during the family’s travels and was for years their only child. On a visit near Lake Como, Caroline noticed, among the children of a poor peasant family, a fair-haired girl unlike the others: **Elizabeth Lavenza**, the daughter of a Milanese nobleman, whose mother had died and whose father had been lost in Italy’s political struggles. The Frankensteins adopted her, and Victor’s mother presented her to him as a gift. From then on he thinks of Elizabeth as his own.',
    ],
    lookFor: [
      '_Benevolence_: the family’s kindness to Caroline and to Elizabeth. Keep it in mind when you read how the creature is welcomed.',
      'Victor’s way of describing Elizabeth as something given to him, a possession rather than a person.',
    ],
  },
  {
    heading: 'Chapter 2',
    summary: [
      'Victor and Elizabeth grow up together in Geneva, she calm and drawn to poetry and to the beauty of nature, he eager to learn the hidden causes of things. His closest friend is **Henry Clerval**, a merchant’s son who loves tales of chivalry and adventure.',
      'At thirteen, kept indoors at an inn at Thonon by bad weather, Victor finds a book by the alchemist **Cornelius Agrippa**. His father dismisses it without explaining why, and Victor, unconvinced, goes on to read Paracelsus and Albertus Magnus, dreaming of the _elixir of life_ and of raising spirits. At fifteen he watches lightning shatter an old oak near the family’s house at Belrive; a visiting man of science explains electricity to him, and Victor turns away from the old masters, for a while, to mathematics.',
      'Looking back, the older Victor presents these turns as the work of destiny, drawing him towards his ruin.',
    ],
    lookFor: [
      'The father’s brief dismissal of Agrippa: Victor suggests that a real explanation might have changed his life. Do you agree?',
      'Fate or choice: how much of what follows does Victor blame on _destiny_?',
    ],
  },
  {
    heading: 'Chapter 3',
    summary: [
      'At seventeen Victor is due to leave for the University of Ingolstadt when Elizabeth falls ill with scarlet fever. His mother nurses her, catches the illness and dies, asking on her deathbed that Victor and Elizabeth marry one day. Victor leaves after a time of mourning; Clerval must stay behind, because his father wants him in the family business.',
      'At Ingolstadt, **M. Krempe**, the professor of natural philosophy, tells him scornfully that his years with the alchemists were wasted. Then Victor hears a lecture by **M. Waldman**, a kindly chemist who praises modern scientists for the real wonders their patient work has achieved. Inspired, Victor resolves to go further than anyone before him and uncover the deepest secrets of creation. Waldman welcomes him, shows him his laboratory and advises him to study every branch of science.',
    ],
    lookFor: [
      'His mother’s death, which comes just before Victor turns to the question of life and death.',
      'The two teachers: Krempe’s contempt and Waldman’s encouragement, and what each does to Victor.',
    ],
  },
  {
    heading: 'Chapter 4',
    summary: [
      'Victor throws himself into chemistry and natural philosophy and does not go home for two years. His skill wins his teachers’ respect, and he becomes fascinated by the question of where life comes from. To understand life he studies death: anatomy, and the decay of bodies in vaults and charnel-houses. After long labour he discovers, he says, how to give life to lifeless matter, a secret he refuses to tell Walton.',
      'He decides to build a being of gigantic size, since the smaller parts of the body would slow his work. In a lonely room at the top of his lodgings he collects materials from dissecting rooms and slaughterhouses and works through a whole summer without noticing it. He stops writing to his family and grows pale, thin and feverish. Here Victor breaks off to warn Walton against any pursuit that crowds out ordinary affections.',
    ],
    lookFor: [
      'Victor’s secrecy and isolation: his work cuts him off from family, friends and the seasons.',
      'His warning about _ambition_: is he a reliable judge of his own story?',
    ],
  },
  {
    heading: 'Chapter 5',
    summary: [
      'On a rainy night in November, Victor brings his creation to life and watches its yellow eye open. At once his dream turns to horror: the features he chose for their beauty look hideous once they move. He rushes from the room and falls into an exhausted sleep, only to dream that Elizabeth turns into his mother’s corpse as he kisses her.',
      'He wakes to find the creature at his bedside, reaching out a hand and trying to speak, and he flees to spend the night in the courtyard below. In the morning, walking the streets, he meets **Henry Clerval**, whose father has at last let him come to study at Ingolstadt. Back at the lodgings the creature has gone. Victor collapses into a _nervous fever_ that lasts for months, and Clerval nurses him through it without telling the family how ill he is.',
    ],
    lookFor: [
      'The creature’s first gesture, a hand held out: what might it want, and how does Victor read it?',
      'The dream of Elizabeth and his mother, where love and death run together in Victor’s mind.',
    ],
  },
  {
    heading: 'Chapter 6',
    summary: [
      'Clerval gives Victor a letter from Elizabeth full of news from home: the family is well, Ernest is growing up, and little **William** is a delight. She tells the story of **Justine Moritz**, a girl treated unkindly by her own mother, who was taken into the Frankenstein household, went back to her mother for a time and has now returned to live with the family.',
      'As he recovers, Victor introduces Clerval to the university, but he can no longer bear the sight of chemical instruments, and his professors’ praise of his talent is torture to him. He tells no one about the creature. Clerval studies Persian, Arabic and Sanskrit, and Victor joins him for the comfort of their poetry. In spring the two friends take a walking tour of the countryside around Ingolstadt, and Victor feels almost happy again.',
    ],
    lookFor: [
      'How Victor hides the truth from everyone, Clerval included, and what that secrecy costs.',
      'Justine’s story: another child who owes her place to the family’s kindness.',
    ],
  },
  {
    heading: 'Chapter 7',
    summary: [
      'A letter from his father shatters the calm: Victor’s youngest brother, **William**, has been murdered. The boy hid during an evening walk and was found the next morning, strangled. Elizabeth blames herself, because she had let him wear a small portrait of their mother, which is missing.',
      'Victor hurries home. Reaching Geneva at night with the gates shut, he walks towards the place where William died, and in a violent thunderstorm over the lake and the Alps a flash of lightning shows him the creature. He is instantly certain that it killed his brother, but it climbs the slopes of Mont Salève and vanishes. He tells no one: who would believe him?',
      'At home he learns that **Justine Moritz** has been arrested, because the missing portrait was found in her pocket. Victor insists that she is innocent, but he cannot say how he knows.',
    ],
    lookFor: [
      'The storm: Shelley often stages the creature’s appearances in wild weather and grand landscapes.',
      'Victor’s silence: why will he not name the killer?',
    ],
  },
  {
    heading: 'Chapter 8',
    summary: [
      'Justine is put on trial, and the evidence against her looks strong: she was out on the night of the murder, she was seen not far from where the body lay, she was overcome when she was shown it, and she had the portrait. She explains calmly that she had been visiting an aunt, searched for William when she heard he was missing and, shut out of the city, spent the night in a barn. She cannot explain the portrait.',
      'Elizabeth speaks movingly of her goodness, but Justine is condemned, and word comes that she has confessed. Visiting her in prison, Victor and Elizabeth learn that the confession was false: a priest frightened her with threats of damnation until she gave in. She forgives everyone and meets her death calmly. Victor suffers terribly, calling himself the true murderer, yet he never speaks up to save her.',
    ],
    lookFor: [
      '_Justice_ in the novel: a court that follows the evidence reaches the wrong verdict.',
      'Victor’s private torment beside Justine’s public suffering: whom does the novel ask us to pity?',
    ],
  },
  {
    heading: 'Chapter 9',
    summary: [
      'After Justine’s death Victor is consumed by remorse and dread. He avoids his family, rows out on the lake at night and thinks of ending his life, held back only by thoughts of Elizabeth, his father and his surviving brother. His hatred of the creature grows, and he longs to meet it again and take revenge.',
      'The family moves to their house at Belrive, but Elizabeth, once so trusting, now sees the world as full of cruelty and injustice. To escape his misery Victor sets out alone for the valley of Chamounix. The journey through the Alps, along the river Arve and its gorges and under the white summit of Mont Blanc, brings him some relief: the grandeur of the mountains makes his own grief seem small, at least for a while.',
    ],
    lookFor: [
      'The _sublime_: vast, frightening natural scenes that lift the mind. Why does Victor seek them out now?',
      'Elizabeth’s loss of faith in human justice after the trial.',
    ],
  },
  {
    heading: 'Chapter 10',
    summary: [
      'Victor spends a day in the valley and then climbs alone to Montanvert, above the vast glacier called the Mer de Glace. There a gigantic figure crosses the ice towards him at superhuman speed: the creature. Victor curses it and tries to attack it, but the creature, calm and eloquent, easily avoids him.',
      'It reminds Victor that he made it and owes it the care a maker owes his creation, as God owed it to Adam. It says it was kind by nature and that misery made it cruel, and it begs Victor to hear its story before he judges it. Moved partly by curiosity and partly by a sense of what he owes, Victor follows it to a hut high on the mountain, where, by a fire, the creature begins to tell its own tale.',
    ],
    lookFor: [
      'The creature’s first words in the novel, reasoned and eloquent: how do they change your picture of it?',
      'Its comparison of itself with Adam and with the fallen angel of Milton’s _Paradise Lost_.',
    ],
  },
  {
    heading: 'Chapter 11',
    summary: [
      'The creature remembers its first days as a jumble of light, sound, warmth and cold that it could not tell apart. Leaving Victor’s rooms, it wandered into a forest near Ingolstadt, living on berries and water, and learned from a fire left by wanderers that fire warms but also burns, and that it can cook food.',
      'Hunger drove it to a shepherd’s hut, whose owner fled in terror, and then into a village, where people threw stones at it until it escaped. It found shelter in a low shed built against a cottage and, through a gap in the wall, began to watch the family who lived there: an old man who played music, a young woman and a young man. They were poor and often sad, but their tenderness to one another moved it deeply.',
    ],
    lookFor: [
      'How the creature learns: through the senses first, then by trial and observation, almost like a small scientist.',
      'The villagers’ reaction: violence before a single word is spoken.',
    ],
  },
  {
    heading: 'Chapter 12',
    summary: [
      'Watching closely, the creature realises that the family is poor and that the young people go without food so that the old man can eat. It stops taking from their store and instead, at night, secretly gathers firewood for them, which they find in the morning with delight and wonder.',
      'It begins to understand that their sounds are words, and slowly it learns names and simple terms: the young man is **Felix**, his sister is **Agatha**, and the old man, who it learns is blind, is called father. It admires their grace and beauty; then, seeing its own reflection in a pool, it is horrified by what it is. Through the winter it hopes that one day, once it can speak well, the family will look past its appearance and accept it.',
    ],
    lookFor: [
      'Language as the door into human society: what does the creature expect words to do for it?',
      'The scene at the pool, a dark version of the myth of _Narcissus_.',
    ],
  },
  {
    heading: 'Chapter 13',
    summary: [
      'In spring a young woman arrives on horseback, a stranger who speaks no French: **Safie**, whom Felix loves, and whose coming brings joy back to the cottage. To teach her their language, Felix reads aloud from **Volney**’s _Ruins of Empires_, and the creature, listening from its shelter, learns faster than she does.',
      'It discovers human history, with its glories and its crimes, and the way society ranks people by wealth, birth and property. It realises that it has none of these: no money, no family, no friend, and no one of its own kind. Knowledge, it finds, brings sorrow. The more it understands, the more it is tormented by the question of who and what it is.',
    ],
    lookFor: [
      'The creature’s education mirrors a student’s, but what it learns is its own exclusion.',
      'Safie as a fellow outsider, learning a new language alongside the creature.',
    ],
  },
  {
    heading: 'Chapter 14',
    summary: [
      'The creature pieces together the family’s history. They are the **De Laceys**, once wealthy and respected in Paris. A Turkish merchant living there was unjustly condemned to death, and Felix, outraged, helped him escape; the merchant encouraged Felix’s hopes of marrying his daughter, **Safie**.',
      'When the French government discovered Felix’s part, his father and sister were imprisoned. Felix gave himself up in the hope of freeing them, and after a trial the family lost its fortune and was exiled from France. The merchant then broke his word and ordered Safie to come home with him. But Safie, taught by her late Christian mother to value an independent mind, took her jewels and some money and made her own way across Europe to find Felix in Germany.',
    ],
    lookFor: [
      'A story within a story within a story: the novel’s _nested narrators_ reach their deepest layer here.',
      'Safie’s courage and independence, beside the other women of the novel.',
    ],
  },
  {
    heading: 'Chapter 15',
    summary: [
      'In the woods the creature finds a leather travelling case holding clothes and three books: Milton’s _Paradise Lost_, Goethe’s _Sorrows of Werter_ and **Plutarch**’s _Lives_. It reads them eagerly and compares itself with Adam, who was made and cared for by God, and with Satan, who envied the happiness of others. In a pocket of the clothes it took from Victor’s laboratory it finds his journal and learns, with disgust, how it was made.',
      'Still it hopes. One day, when the young people are out, it enters the cottage and speaks to the blind old man, who listens kindly. But Felix, Safie and Agatha return: Agatha faints, Safie runs, and Felix strikes the creature and drives it away. It could have overpowered him, but it flees in anguish instead.',
    ],
    lookFor: [
      'The three books, and what each teaches the creature about feeling, virtue and its own place.',
      'Why the creature chooses the blind man to speak to first.',
    ],
  },
  {
    heading: 'Chapter 16',
    summary: [
      'In despair the creature curses its maker. When it returns, the De Laceys have left the cottage for good, and in its rage it burns the place down. Knowing from Victor’s journal that his family lives in Geneva, it travels there over many months, hiding by day. On the way it saves a girl from drowning, and the man with her shoots it.',
      'Near Geneva it meets a small boy and thinks that a child, not yet taught to fear, might become its friend. But the boy screams, threatens it with his father, M. Frankenstein, and the creature strangles him. It takes the portrait the boy was wearing and later slips it into the dress of a young woman asleep in a barn: Justine. It ends its story by demanding that Victor make it a female companion.',
    ],
    lookFor: [
      'The turn from kindness to revenge, and the reward the rescue of the girl brings.',
      'Justice again: set the creature’s account of the portrait beside Justine’s trial in Chapter 8.',
    ],
  },
  {
    heading: 'Chapter 17',
    summary: [
      'The creature argues its case: it is alone and wretched, and a companion of its own kind, as strange to look at as itself, would make it gentle. If Victor agrees, the pair will leave Europe for the wilds of South America, living on acorns and berries and never troubling people again.',
      'Victor refuses in fury at first, then wavers. He feels some justice in the request and fears what the creature may do if refused. He makes it swear to leave with its mate for ever, and at last he promises. The creature says it will watch his progress, and it leaves across the ice. Victor returns to Geneva weighed down by his promise and unable to tell his family anything.',
    ],
    lookFor: [
      'The creature’s argument from _sympathy_: does it persuade you?',
      'Victor’s motives for agreeing: compassion, fear, or both?',
    ],
  },
  {
    heading: 'Chapter 18',
    summary: [
      'Back in Geneva, Victor puts off the work. He needs knowledge from scientists in England, and he cannot face the task. His father, seeing his gloom, asks whether he still wishes to marry Elizabeth or loves someone else; Victor says he loves her, but privately resolves to finish his work first, so as to come to her free of it.',
      'He sets out for England, and his family arranges for Clerval to go with him. The friends travel down the Rhine past vineyards, castles and cliffs. Clerval delights in everything, while Victor, who knows what waits at the end of the journey, can only half share his joy. Remembering those days, Victor pays tribute to his friend’s warm and poetic spirit. From Rotterdam they sail to London.',
    ],
    lookFor: [
      'Clerval as a _foil_ to Victor: open, enthusiastic, a lover of nature and of people.',
      'How the wedding and the companion promised to the creature become tied together in Victor’s mind.',
    ],
  },
  {
    heading: 'Chapter 19',
    summary: [
      'In London Victor gathers what he needs for his work, while Clerval meets people and plans a future in India. Invited to visit an acquaintance in Scotland, the friends travel north by way of Oxford, with its memories of the English Civil War, Matlock, the Lake District and Edinburgh. On the way Victor is tormented by the fear that the creature is following them and may harm his friend, or his family at home.',
      'In Scotland he leaves Clerval and goes alone to a remote island in the Orkneys, where he rents a poor hut and sets up his laboratory. The work that once thrilled him now sickens him. Surrounded by a grey sea and barren rocks, he works in dread, half expecting at every moment to see the creature again.',
    ],
    lookFor: [
      'The contrast between Clerval’s plans for the future and Victor’s dread.',
      'The desolate island as a mirror of Victor’s state of mind.',
    ],
  },
  {
    heading: 'Chapter 20',
    summary: [
      'One evening in his laboratory Victor stops to think. A female might be even more malignant than the first creature; she might refuse an agreement she never made, or hate her mate; and the two might have children, a whole race that could threaten humanity. Looking up, he sees the creature grinning at the window, and before its eyes he tears the unfinished female to pieces.',
      'The creature howls in despair and vows revenge, warning that it will be with Victor on his wedding night. Soon after, a letter from Clerval asks him to rejoin his friend at Perth. Before leaving, Victor sails out to sea by night and sinks the remains in a basket weighted with stones, then falls asleep in the boat. The wind drives him to an unknown coast in Ireland, where hostile townspeople take him to a magistrate, **Mr Kirwin**: a man was murdered there the night before.',
    ],
    lookFor: [
      'Victor’s reasons for destroying the female: responsibility to humanity, or fear and disgust?',
      'The threat about his wedding night, which Victor takes to be aimed at himself.',
    ],
  },
  {
    heading: 'Chapter 21',
    summary: [
      'Witnesses tell how a young man’s body was found on the shore the night before, with the marks of fingers on the neck. Taken to see it, Victor finds **Henry Clerval**. He collapses into a fever that lasts two months, crying out that he is the murderer.',
      'Mr Kirwin treats him with unexpected kindness and sends for his father, who arrives to comfort him. When the case comes before a court, it is proved that Victor was in the Orkneys when the body was found, and he is released. Father and son set off for home. Victor now needs laudanum to sleep, and on the voyage a double dose brings a nightmare of the creature’s grip on his neck. He now counts three deaths, William, Justine and Clerval, as his own doing.',
    ],
    lookFor: [
      'Kirwin’s kindness to a stranger, the hospitality the creature never received.',
      'Victor’s guilt: he calls himself a murderer, yet still keeps his secret.',
    ],
  },
  {
    heading: 'Chapter 22',
    summary: [
      'In Paris, Victor tells his father that he murdered William, Justine and Henry; his father thinks he is still delirious. A letter from Elizabeth asks gently whether he loves someone else, and releases him from any promise if he does. Victor answers that he loves her and has a terrible secret that he will tell her the day after their wedding; until then she must not ask.',
      'Back in Geneva the wedding is fixed. Convinced that the creature means to kill him on his wedding night, Victor carries pistols and a dagger and resolves to fight for his life. After the ceremony the couple travel by boat along the lake to Evian, and Victor watches the beauty of the evening with a growing sense of foreboding.',
    ],
    lookFor: [
      '_Dramatic irony_: the reader suspects whom the threat is aimed at long before Victor does.',
      'Elizabeth’s letter, one of the few times we hear her voice directly.',
    ],
  },
  {
    heading: 'Chapter 23',
    summary: [
      'At the inn in Evian a storm rises. Victor, armed, sends Elizabeth to their room and searches the house for the creature. Then he hears a terrible scream: Elizabeth lies dead on the bed, strangled. At the open window he sees the creature grinning and pointing at her body; he fires, but it escapes and plunges into the lake.',
      'Victor returns to Geneva, where his father, broken by grief, dies a few days later. Victor loses his reason and spends months confined. When he recovers, he tells the whole story to a magistrate in Geneva, who listens with some belief but plainly doubts that anyone could catch such a being. Victor vows to pursue the creature himself for as long as he lives.',
    ],
    lookFor: [
      'Victor’s failure to imagine that Elizabeth was the target: what does it reveal about him?',
      'The magistrate’s answer, the one time Victor takes his story to the authorities.',
    ],
  },
  {
    heading: 'Chapter 24',
    summary: [
      'With some money and his mother’s jewels, Victor leaves Geneva. At his family’s graves he swears vengeance, and a mocking laugh answers him. The chase leads down the Rhône to the Mediterranean, to the Black Sea, across Tartary and Russia and into the frozen north. The creature leaves him messages cut into trees and stones, and sometimes food, to keep him coming.',
      'Here Victor’s tale ends and **Walton** writes the rest. The ship is trapped in the ice, the crew demand to turn back, and Victor urges them on towards glory. Walton gives way and turns south, and Victor dies. That night Walton finds the creature over Victor’s body, full of grief and remorse. It says it will end its life in fire at the far north of the world, then leaps onto a raft of ice and is carried away into the darkness.',
    ],
    lookFor: [
      'Walton’s choice to turn back: is it the novel’s answer to Victor’s story?',
      'The creature’s final speech: who, in the end, has suffered more?',
    ],
  },
];

/** A companion page in the viewer's markup: `# heading`, paragraphs, then a bold `**Look for**` line and a list (not a heading: the contents list chapters only). */
function pageText(page: CompanionPage): string {
  return [
    `# ${page.heading}`,
    '',
    ...page.summary.flatMap((paragraph) => [paragraph, '']),
    '**Look for**',
    '',
    ...page.lookFor.map((line) => `- ${line}`),
  ].join('\n');
}

/**
 * The companion's 28 pages, Letter 1 to Chapter 24, each starting with its heading line so that
 * the book's contents can list it. They follow the demo Frankenstein's reading guide.
 */
export const FRANKENSTEIN_COMPANION_PAGES: readonly string[] = PAGES.map(pageText);
